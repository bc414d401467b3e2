// Pan laws: constant-power for mono sources, balance for stereo sources. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Left/right gain pairs for a pan position in −1 (hard left) … +1 (hard right).
public enum PanLaw {
    /// Constant-power (sin/cos, −3 dB at centre) gains for a mono source.
    ///
    /// left = cos((pan + 1)·π/4), right = sin((pan + 1)·π/4); exact 0 and 1 at the extremes.
    public static func constantPower(pan: Float) -> (left: Float, right: Float) {
        let position = min(max(pan, -1), 1)
        if position <= -1 { return (1, 0) }
        if position >= 1 { return (0, 1) }
        let angle = Double(position + 1) * Double.pi / 4
        return (Float(cos(angle)), Float(sin(angle)))
    }

    /// Balance gains for a stereo source: the far side is attenuated linearly, the near side stays at unity.
    public static func balance(pan: Float) -> (left: Float, right: Float) {
        let position = min(max(pan, -1), 1)
        return position < 0 ? (1, 1 + position) : (1 - position, 1)
    }
}
