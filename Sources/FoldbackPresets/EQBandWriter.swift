// Writes an `eq` unit's curve and its own bands for PresetWriter. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// An `eq` unit's `curve` and the bands that differ from it (overrides by `index`, then added bands).
enum EQBandWriter {
    static func write(_ unit: UnitSpec, into text: inout TOMLText) {
        text.key("curve", string: unit.curve)
        for (offset, spec) in unit.bands.enumerated() where spec.origin != .curve {
            text.table("[[\(text.unitPath).band]]")
            if spec.origin == .overridden { text.key("index", offset + 1) }
            let band = spec.band
            text.key("type", string: band.type.rawValue)
            text.key("freq_hz", Float(band.frequency))
            if band.type.usesGain || band.gainDB != 0 { text.key(ParameterTree.Key.gain, Float(band.gainDB)) }   // kept for a later type change
            if band.type.hasSlope { text.key("slope_db_oct", band.slopeDBPerOctave) }
            if band.sectionCount == 1, band.q != band.type.defaultQ { text.key("q", Float(band.q)) }   // the default reads back exactly
            if !band.isEnabled { text.key("enabled", false) }
        }
    }
}
