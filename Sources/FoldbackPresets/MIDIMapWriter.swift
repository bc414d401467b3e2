// Writes a preset's `[midi]` section and the bands of `eq` units for PresetWriter. Non-realtime.
import FoldbackDSP

/// The `[midi]` table and its `[[midi.cc]]` entries; nothing when the map is the default.
enum MIDIMapWriter {
    static func write(_ map: MIDIMap, into text: inout TOMLText) {
        guard !map.isDefault else { return }
        text.table("[midi]")
        text.key("program_change", map.respondsToProgramChange)
        if let channel = map.programChannel { text.key("program_channel", channel) }
        for control in map.controls {
            text.table("[[midi.cc]]")
            text.key("channel", control.channel)
            text.key("cc", control.controller)
            text.key("target", string: control.target.description)
            text.key("min", control.minimum)
            text.key("max", control.maximum)
            text.key("curve", string: control.curve.rawValue)
            text.key("mode", string: control.mode.rawValue)
        }
    }
}

/// An `eq` unit's `curve` and the bands that differ from it (overrides by `index`, then added bands).
enum EQBandWriter {
    static func write(_ unit: UnitSpec, into text: inout TOMLText) {
        text.key("curve", string: unit.curve)
        for (offset, spec) in unit.bands.enumerated() where spec.origin != .curve {
            text.table("[[strip.unit.band]]")
            if spec.origin == .overridden { text.key("index", offset + 1) }
            let band = spec.band
            text.key("type", string: band.type.rawValue)
            text.key("freq_hz", Float(band.frequency))
            if band.type.usesGain { text.key("gain_db", Float(band.gainDB)) }
            if band.type.hasSlope { text.key("slope_db_oct", band.slopeDBPerOctave) }
            if band.sectionCount == 1 { text.key("q", Float(band.q)) }
            if !band.isEnabled { text.key("enabled", false) }
        }
    }
}
