// Validates one EQ band table (`[[strip.unit.band]]` in a preset, `[[band]]` in a curve file) into an EQBand. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// Reads a band table: each key's type and range, then the rules between keys (`q` or `bw_oct`, not both;
/// `slope_db_oct` only on high/low-pass; a warning for `gain_db` where it does nothing yet…).
enum EQBandDecoder {
    /// The keys of a band table in a curve file.
    static let keys = ["type", "freq_hz", ParameterTree.Key.gain, "q", "bw_oct", "slope_db_oct", "slope", "enabled"]
    /// The keys of a band table in a preset: a curve band's `index` as well.
    static let presetKeys = ["index"] + keys
    /// The spellings of the band types.
    static let typeChoices = EQBandType.allCases.enumerated().map { ParameterSchema.Choice(name: $1.rawValue, value: Float($0)) }

    /// The band `reader` describes, written over `base` (the curve band it overrides) when given.
    /// Nil after reporting why, when a required key is missing or a value is unusable.
    static func decode(_ reader: TableReader, over base: EQBand? = nil) -> EQBand? {
        let table = reader.table
        let typeValue = reader.choice("type", among: typeChoices, default: -1)
        let writtenType = typeValue >= 0 ? EQBandType.allCases[Int(typeValue)] : nil
        if table["type"] == nil && base == nil { reader.log.error("\(reader.label) is missing required key 'type'", at: reader.location) }
        if table["freq_hz"] == nil && base == nil { reader.log.error("\(reader.label) is missing required key 'freq_hz'", at: reader.location) }
        let frequency = read(reader, "freq_hz", EQBand.frequencyRange)
        let gain = read(reader, ParameterTree.Key.gain, EQBand.gainRange)
        let q = read(reader, "q", EQBand.qRange)
        let bandwidth = read(reader, "bw_oct", EQBand.bandwidthRange)
        let shelfSlope = read(reader, "slope", EQBand.shelfSlopeRange)
        let slope = slopeDBPerOctave(reader)
        let isEnabled = table["enabled"].map { _ in reader.bool("enabled", default: true) }
        guard let type = writtenType ?? (table["type"] == nil ? base?.type : nil) else { return nil }

        let keptType = base?.type == type
        var band = base.map { keptType ? $0 : EQBand(type: type, frequency: $0.frequency, gainDB: $0.gainDB, isEnabled: $0.isEnabled) }
            ?? EQBand(type: type, frequency: 1000)
        if let frequency = frequency.value { band.frequency = frequency }
        if let gain = gain.value { band.gainDB = gain }
        if let slope { band.slopeDBPerOctave = slope }
        if let isEnabled { band.isEnabled = isEnabled }

        // Rules between keys, each reported at the key that breaks it.
        if gain.isPresent && !type.usesGain {   // kept: the band's type may change live (a saved switch writes it)
            reader.log.warning("'gain_db' does nothing on a '\(type.rawValue)' band until its type changes to peak, low_shelf or high_shelf",
                               at: reader.keyLocation(ParameterTree.Key.gain))
        }
        if table["slope_db_oct"] != nil && !type.hasSlope {
            reader.log.error("'slope_db_oct' is for high_pass and low_pass bands, not '\(type.rawValue)'", at: reader.keyLocation("slope_db_oct"))
        }
        if shelfSlope.isPresent && type != .lowShelf && type != .highShelf {
            reader.log.error("'slope' is for low_shelf and high_shelf bands, not '\(type.rawValue)'; use 'q'", at: reader.keyLocation("slope"))
        }
        if bandwidth.isPresent && !(type == .peak || type == .notch || type == .bandPass || type == .allPass) {
            reader.log.error("'bw_oct' is for peak, notch, band_pass and all_pass bands, not '\(type.rawValue)'; use 'q'",
                             at: reader.keyLocation("bw_oct"))
        }
        let widths = [q, bandwidth, shelfSlope].filter(\.isPresent)
        if widths.count > 1 {
            let names = widths.map { "'\($0.key)'" }.joined(separator: " and ")
            reader.log.error("give one of 'q', 'bw_oct' or 'slope', not \(names)", at: reader.keyLocation(widths[1].key))
        }
        if q.isPresent && band.sectionCount == 2 {
            reader.log.error("'q' applies to 12 dB/oct filters; a 24 dB/oct \(type.rawValue) is Butterworth (sections at Q 0.54 and 1.31)",
                             at: reader.keyLocation("q"))
        }

        if let value = q.value {
            band.q = value
        } else if let value = bandwidth.value {
            band.q = EQBand.q(bandwidthOctaves: value)
        } else if let value = shelfSlope.value {
            band.q = EQBand.q(shelfSlope: value, gainDB: band.gainDB)
        } else if !keptType {
            band.q = type.defaultQ
        }
        return band
    }

    /// A number key: whether it is written, and its value if valid (range errors are reported).
    private struct Reading {
        var key: String
        var isPresent: Bool
        var value: Double?
    }

    private static func read(_ reader: TableReader, _ key: String, _ range: ClosedRange<Double>) -> Reading {
        guard reader.table[key] != nil else { return Reading(key: key, isPresent: false, value: nil) }
        let value = reader.number(key, in: Float(range.lowerBound)...Float(range.upperBound), default: .nan)
        return Reading(key: key, isPresent: true, value: value.isNaN ? nil : Double(value))
    }

    /// `slope_db_oct`: 12 or 24, or nil if absent or invalid (reported).
    private static func slopeDBPerOctave(_ reader: TableReader) -> Int? {
        guard let value = reader.table["slope_db_oct"] else { return nil }
        let number = value.int.map(Double.init) ?? value.double
        guard let number else {
            reader.reportType("slope_db_oct", expected: "12 or 24", found: value)
            return nil
        }
        guard number == 12 || number == 24 else {
            reader.log.error("'slope_db_oct' must be 12 or 24, found \(NumberFormatting.plain(number))", at: reader.valueLocation("slope_db_oct"))
            return nil
        }
        return Int(number)
    }
}
