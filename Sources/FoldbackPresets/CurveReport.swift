// The text `foldback curves` prints: the factory curve list, and one curve's bands and response. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Formats the curve library and a curve's magnitude response (computed from the digital filters).
public enum CurveReport {
    /// One line per curve: name, band count, description.
    public static func listing(_ library: CurveLibrary) -> String {
        let width = library.curves.map(\.name.count).max() ?? 0
        var lines = ["\(library.curves.count) factory EQ curves in \(library.directory):", ""]
        for curve in library.curves {
            let bands = "\(curve.bands.count) band\(curve.bands.count == 1 ? "" : "s")"
            lines.append("  " + curve.name.padding(width, left: false) + "  " + bands.padding(8, left: false) + "  " + curve.summary)
        }
        lines += ["", "Show one: foldback curves NAME   (plot it: --svg FILE)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The curve's bands, then its response at `sampleRate` Hz at the ⅓-octave centres with a bar for each level.
    public static func details(_ curve: EQCurve, sampleRate: Double) -> String {
        var lines = [curve.name, "  " + curve.summary, "  file: \(curve.path)", "", "Bands"]
        lines += EQBandText.lines(curve.bands).map { "  " + $0 }
        lines += ["", "Response at \(kilohertz(sampleRate)) kHz (1/3-octave centres; each # is 1 dB)"]
        let centres = EQResponse.thirdOctaveCentres
        let levels = EQResponse.magnitudeDB(bands: curve.bands.map(\.band), sampleRate: sampleRate, frequencies: centres.map(\.frequency))
        for (centre, level) in zip(centres, levels) {
            let label = centre.nominal.hasSuffix("k") ? "\(centre.nominal.dropLast()) kHz" : "\(centre.nominal) Hz"
            lines.append("  " + label.padding(9, left: true) + "  " + decibels(level) + "  " + bar(level))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `+4.0 dB`, `-12.5 dB`, `-inf dB`, right-aligned to 9 characters.
    public static func decibels(_ level: Double) -> String {
        guard level.isFinite, level > -200 else { return "-inf dB".padding(9, left: true) }
        let tenths = Int((level * 10).rounded())
        let sign = tenths > 0 ? "+" : (tenths < 0 ? "-" : " ")
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10) dB".padding(9, left: true)
    }

    /// A bar around a `|` at 0 dB, one `#` per dB, cut at ±24 dB with a `<` or `>`.
    public static func bar(_ level: Double) -> String {
        let limit = 24
        let clipped = level.isFinite ? level : -Double(limit + 1)
        let length = min(limit, Int(abs(clipped).rounded()))
        let overflow = abs(clipped) > Double(limit)
        if clipped < 0 {
            let body = (overflow ? "<" : "") + String(repeating: "#", count: overflow ? length - 1 : length)
            return String(repeating: " ", count: limit - body.count) + body + "|"
        }
        return String(repeating: " ", count: limit) + "|" + String(repeating: "#", count: length) + (overflow ? ">" : "")
    }

    /// A sample rate in kHz: `48`, `44.1`.
    public static func kilohertz(_ rate: Double) -> String {
        let value = rate / 1000
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
