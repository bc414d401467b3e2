// How preset numbers read in messages and reports (`6`, `-3.5`, `+6.0 dB`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Formats numbers the way a preset author wrote them, and levels the way a console shows them.
public enum NumberFormatting {
    /// `6`, `-3.5`, `0.25`: whole numbers without a fraction, others in shortest form.
    public static func plain(_ value: Float) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
        return "\(value)"
    }

    /// `6`, `-3.5` for a TOML double, keeping full precision in messages.
    public static func plain(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    /// `frames` at `sampleRate` in milliseconds with two decimals: `1.50`, `0.00`.
    public static func milliseconds(frames: Int, sampleRate: Double) -> String {
        let hundredths = sampleRate > 0 ? Int((Double(frames) * 100_000 / sampleRate).rounded()) : 0
        let fraction = abs(hundredths % 100)
        return "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// A level with sign and one decimal: `+6.0 dB`, `-3.5 dB`, `0.0 dB`; `-inf dB` at the floor.
    /// Right-aligned to `width` characters so columns of levels line up.
    static func decibels(_ value: Float, width: Int = 8) -> String {
        let text: String
        if value.isNaN {
            text = "nan dB"
        } else if value <= -144 {
            text = "-inf dB"
        } else if value > 1e6 {
            text = "+inf dB"
        } else {
            let tenths = (value * 10).rounded()
            let magnitude = Int(abs(tenths))
            let sign = tenths > 0 ? "+" : (tenths < 0 ? "-" : "")
            text = "\(sign)\(magnitude / 10).\(magnitude % 10) dB"
        }
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// A pan position: `C`, `L50`, `R100` (percent of full travel).
    static func pan(_ value: Float) -> String {
        guard value.isFinite else { return "\(value)" }
        let percent = Int((min(abs(value), 1000) * 100).rounded())
        if percent == 0 { return "C" }
        return (value < 0 ? "L" : "R") + String(percent)
    }
}
