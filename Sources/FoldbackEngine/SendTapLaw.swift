// Which strip channel feeds which bus channel of a send, and with what pan-law gain. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// The taps of a send from a strip of `stripChannels` into a bus of `busChannels`:
/// mono→mono 1; mono→stereo constant-power pan; stereo→stereo balance; stereo→mono 0.5·(bL·L + bR·R), the
/// balance gains applied before the sum (balance hard left: only L reaches the bus, at the level a centred
/// L-only signal has, −6 dB).
enum SendTapLaw {
    /// (source channel, bus channel) pairs, in tap order.
    static func routes(stripChannels: Int, busChannels: Int) -> [(source: Int, bus: Int)] {
        switch (stripChannels, busChannels) {
        case (1, 1): return [(0, 0)]
        case (1, _): return [(0, 0), (0, 1)]
        case (_, 1): return [(0, 0), (1, 0)]
        default: return [(0, 0), (1, 1)]
        }
    }

    /// The pan-law gain of tap `tap` at pan position `pan`.
    static func gain(tap: Int, stripChannels: Int, busChannels: Int, pan: Float) -> Float {
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
            return tap == 0 ? gains.left : gains.right
        }
    }
}
