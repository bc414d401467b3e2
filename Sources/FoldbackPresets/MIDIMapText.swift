// The `MIDI` block `foldback check` prints for a preset's `[midi]` section. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Lines describing a ``MIDIMap``: one per mapping, and how program changes are taken.
enum MIDIMapText {
    /// `MIDI  (midi_in)`, then `ch 1  CC 7  -> strip.vox.gain_db  -60 to 6, db` lines and the program-change line.
    static func lines(_ map: MIDIMap, preset: Preset) -> [String] {
        var lines = ["MIDI  (midi_in)"]
        let width = map.controls.map { "ch \($0.channel)  \($0.kind.name($0.controller))".count }.max() ?? 0
        for control in map.controls {
            let source = "ch \(control.channel)  \(control.kind.name(control.controller))".padding(width, left: false)
            let isSwitch = (try? control.target.info(in: preset).get())?.isSwitch ?? false
            let isPress = control.target.isTempoTap || control.target.sourceTransport != nil   // a mode means nothing there
            let mapping = isPress ? (control.kind == .note ? "press (note-on)" : "press (rising through 64)")
                : isSwitch ? control.mode.rawValue
                : "\(NumberFormatting.plain(control.minimum)) to \(NumberFormatting.plain(control.maximum)), \(control.curve.rawValue)"
            lines.append("  \(source)  -> \(control.target)  \(mapping)")
        }
        let channel = map.programChannel.map { "channel \($0)" } ?? "any channel"
        lines.append("  program change  " + (map.respondsToProgramChange ? "selects setlist entries (\(channel))" : "ignored"))
        return lines
    }
}
