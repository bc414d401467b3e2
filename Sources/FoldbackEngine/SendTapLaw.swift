// Which strip channel feeds which bus channel of a send, and with what pan-law gain. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// The taps of a send from a strip of `stripChannels` into a bus of `busChannels`:
/// mono→mono 1; mono→stereo constant-power pan; stereo→stereo width then balance; stereo→mono 0.5·(bL·L + bR·R), the
/// balance gains applied before the sum (balance hard left: only L reaches the bus, at the level a centred
/// L-only signal has, −6 dB).
///
/// Width `w` (stereo→stereo only) scales the side signal: L' = L·(1+w)/2 + R·(1−w)/2, R' = R·(1+w)/2 + L·(1−w)/2,
/// so 0 is the mono sum (L+R)/2 in both channels, 1 passes the strip as is (the cross taps exactly 0) and 2 doubles
/// the side signal. The balance then scales L' and R'.
enum SendTapLaw {
    /// The most taps one send has (stereo→stereo: two straight, two crossed for width).
    static let maxRoutes = 4
    /// The widths a send accepts.
    static let widthRange: ClosedRange<Float> = 0...2

    /// (source channel, bus channel) pairs, in tap order.
    static func routes(stripChannels: Int, busChannels: Int) -> [(source: Int, bus: Int)] {
        switch (stripChannels, busChannels) {
        case (1, 1): return [(0, 0)]
        case (1, _): return [(0, 0), (0, 1)]
        case (_, 1): return [(0, 0), (1, 0)]
        default: return [(0, 0), (1, 1), (1, 0), (0, 1)]
        }
    }

    /// The pan-law gain of tap `tap` at pan position `pan` and (stereo→stereo) width `width`.
    static func gain(tap: Int, stripChannels: Int, busChannels: Int, pan: Float, width: Float = 1) -> Float {
        switch (stripChannels, busChannels) {
        case (1, 1): return 1
        case (1, _):
            let gains = PanLaw.constantPower(pan: pan)
            return tap == 0 ? gains.left : gains.right
        case (_, 1):
            let gains = PanLaw.balance(pan: pan)
            return 0.5 * (tap == 0 ? gains.left : gains.right)
        default:
            let gains = PanLaw.balance(pan: pan)
            let balance = tap == 0 || tap == 2 ? gains.left : gains.right
            return balance * (tap < 2 ? (1 + width) / 2 : (1 - width) / 2)
        }
    }
}
