// Starts MIDI control of a live session: the `midi_in` port and the control thread applying the preset's `[midi]` map. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackJACK
import FoldbackPresets

extension LiveSession {
    /// Registers `midi_in` and starts the thread that applies the preset's `[midi]` map; status notes
    /// (a program change with no setlist, a refused value, a learned mapping) go to standard error.
    /// Set the returned loop's `controller.onProgramChange` to switch setlist entries.
    package func startMIDI() throws(JACKError) -> MIDIInputLoop {
        try host.registerMIDIInput()
        let controller = MIDIController(preset: preset, engine: engine)
        controller.onNote = { StandardError.writeLine("foldback: \($0)") }
        let host = host
        return MIDIInputLoop(controller: controller, source: { host.nextMIDIMessage() })
    }
}

extension LiveSession {
    /// ``startMIDI()``, or nil after a warning: a session without MIDI still mixes.
    package func startMIDIOrWarn() -> MIDIInputLoop? {
        do {
            return try startMIDI()
        } catch {
            StandardError.writeLine("foldback: warning: no MIDI input: \(error)")
            return nil
        }
    }
}
