// Decibel ↔ linear gain conversion. Realtime-safe (pure math, no allocation).
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversions between decibels and linear amplitude gain.
public enum Decibels {
    /// Gains at or below this level (in dB) are treated as silence: exactly 0 linear.
    public static let silenceFloor: Float = -144

    /// Linear amplitude gain for a level in dB; at or below ``silenceFloor`` (or −∞) returns exactly 0.
    public static func linearGain(fromDecibels decibels: Float) -> Float {
        if !(decibels > silenceFloor) { return 0 }
        return powf(10, decibels / 20)
    }

    /// Level in dB of a linear amplitude gain; 0 (or negative) maps to −∞.
    public static func decibels(fromLinearGain gain: Float) -> Float {
        if !(gain > 0) { return -Float.infinity }
        return 20 * log10f(gain)
    }
}
