// One band of an `eq` unit or of a factory curve, as validated from a preset or curve file. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// A validated EQ band and where it came from.
public struct EQBandSpec: Sendable, Hashable {
    /// Where a band of an `eq` unit comes from.
    public enum Origin: String, Sendable, Hashable {
        /// Taken unchanged from the unit's curve (or, in a curve file, written there).
        case curve
        /// A curve band the preset overrides with `index = n`.
        case overridden
        /// A band the preset adds after the curve's.
        case added
    }

    /// The band, every value filled in (Q from `q`, `bw_oct` or `slope`, or the type's default).
    public var band: EQBand
    /// Where the band comes from.
    public var origin: Origin
    /// Where the band's table starts (in the preset for overridden and added bands, else in the curve file).
    public var location: SourceLocation

    /// Creates a band description.
    public init(band: EQBand, origin: Origin = .added, location: SourceLocation) {
        self.band = band
        self.origin = origin
        self.location = location
    }
}

/// The text `foldback check` and `foldback curves` print for bands.
public enum EQBandText {
    /// One aligned line per band: `1. peak         3000 Hz   +2.5 dB   Q 1.00`, with `off` for a disabled
    /// band and, when `showsOrigin`, `(from curve)` / `(overrides curve band)` / `(added)`.
    public static func lines(_ bands: [EQBandSpec], showsOrigin: Bool = false) -> [String] {
        let typeWidth = bands.map(\.band.type.rawValue.count).max() ?? 0
        let numberWidth = "\(bands.count).".count
        return bands.enumerated().map { index, spec in
            let band = spec.band
            var fields = [
                "\(index + 1).".padding(numberWidth, left: false),
                band.type.rawValue.padding(typeWidth, left: false),
                hertz(band.frequency).padding(9, left: true),
                shape(band).padding(10, left: true),
                quality(band),
            ]
            if !band.isEnabled { fields.append("off") }
            if showsOrigin { fields.append(originText(spec.origin)) }
            var line = fields.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// `80 Hz`, `3150 Hz`, `12.5 kHz`.
    public static func hertz(_ frequency: Double) -> String {
        if frequency >= 10_000 { return "\(trimmed(frequency / 1000, digits: 2)) kHz" }
        return "\(trimmed(frequency, digits: frequency < 100 ? 1 : 0)) Hz"
    }

    /// The gain (peaks and shelves) or the slope (high/low-pass); empty for other types.
    private static func shape(_ band: EQBand) -> String {
        if band.type.hasSlope { return "\(band.sectionCount == 2 ? 24 : 12) dB/oct" }
        guard band.type.usesGain else { return "" }
        return NumberFormatting.decibels(Float(band.gainDB), width: 0)
    }

    /// `Q 0.71`, `Q 1.00 (1.39 oct)` for bells, `Butterworth` for 24 dB/octave filters.
    private static func quality(_ band: EQBand) -> String {
        if band.sectionCount == 2 { return "Butterworth" }
        let q = "Q \(trimmed(band.q, digits: 2, keepsZeros: true))"
        switch band.type {
        case .peak, .notch, .bandPass:
            return q + " (\(trimmed(EQBand.bandwidthOctaves(q: band.q), digits: 2, keepsZeros: true)) oct)"
        default:
            return q
        }
    }

    private static func originText(_ origin: EQBandSpec.Origin) -> String {
        switch origin {
        case .curve: return "(from curve)"
        case .overridden: return "(overrides curve band)"
        case .added: return "(added)"
        }
    }

    /// `value` rounded to `digits` decimals, trailing zeros dropped unless `keepsZeros`.
    static func trimmed(_ value: Double, digits: Int, keepsZeros: Bool = false) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(Int(rounded.rounded(.towardZero)))"
        if rounded < 0 && text == "0" { text = "-0" }
        guard digits > 0 else { return text }
        let fraction = Int((abs(rounded) * scale).rounded()) % Int(scale)
        var decimals = String(fraction)
        decimals = String(repeating: "0", count: digits - decimals.count) + decimals
        if !keepsZeros { while decimals.hasSuffix("0") { decimals.removeLast() } }
        return decimals.isEmpty ? text : "\(text).\(decimals)"
    }
}

extension String {
    /// Padded with spaces to `width` characters, on the left (right-aligned) or the right.
    func padding(_ width: Int, left: Bool) -> String {
        guard count < width else { return self }
        let spaces = String(repeating: " ", count: width - count)
        return left ? spaces + self : self + spaces
    }
}
