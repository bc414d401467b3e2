// Writes a preset's `[midi]` section (its `[[midi.cc]]` and `[[midi.note]]` entries) for PresetWriter. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The `[midi]` table and its `[[midi.note]]` and `[[midi.cc]]` entries; nothing when the map is the default.
enum MIDIMapWriter {
    static func write(_ map: MIDIMap, into text: inout TOMLText) {
        guard !map.isDefault else { return }
        text.table("[midi]")
        text.key("program_change", map.respondsToProgramChange)
        if let channel = map.programChannel { text.key("program_channel", channel) }
        for control in map.controls where control.kind == .note {
            text.table("[[midi.note]]")
            text.key("channel", control.channel)
            text.key("note", control.controller)
            text.key("target", string: control.target.description)
            text.key("mode", string: control.mode.rawValue)
        }
        for control in map.controls where control.kind == .controlChange {
            text.table("[[midi.cc]]")
            text.key("channel", control.channel)
            text.key("cc", control.controller)
            text.key("target", string: control.target.description)
            text.key("min", control.minimum)
            text.key("max", control.maximum)
            text.key("curve", string: control.curve.rawValue)
            text.key("mode", string: control.mode.rawValue)
            if let relative = control.relative {
                text.key("relative", string: relative.rawValue)
                text.key("step", control.step)
            }
        }
    }
}
