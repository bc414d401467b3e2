// OSC commands for MIDI learn: arm a parameter, cancel, save the learned mappings into a preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets

extension ControlRouter {
    /// `/foldback/midi/learn s TARGET` arms learning (`strip.vox.gain_db`, `bus.main.mute`…: the `target`
    /// syntax of `[[midi.cc]]`); `/foldback/midi/learn/cancel` disarms; `/foldback/midi/save [s PATH]` writes
    /// the preset with its learned mappings (to its own file without a path; a given path must pass
    /// ``FilePathPolicy``).
    func midiCommand(_ message: OSCMessage, command: String, midi: MIDIController?, surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        guard let midi else { throw .failed("MIDI control is not running (no midi_in port)") }
        switch command {
        case "learn":
            guard message.arguments.count == 1, let text = message.arguments[0].text else {
                throw .malformed("/foldback/midi/learn takes one string, the target (e.g. strip.vox.gain_db); got '\(message.typeTags)'")
            }
            guard let target = MIDITarget(parsing: text) else {
                throw .malformed("'\(text)' is not a MIDI target: strip.NAME.gain_db|pan|mute|solo, strip.NAME.send.BUS.gain_db, strip.NAME.unit.ID.PARAM|bypass, bus.NAME.gain_db|mute|limiter_ceiling_db|limiter_release_ms, bus.NAME.unit.ID.PARAM|bypass, cue.bus.NAME, cue.strip.NAME.pfl|afl, cue.clear, cue.gain_db")
            }
            do {
                try midi.arm(target) { [self] spec in
                    note("MIDI learn: channel \(spec.channel) CC \(spec.controller) → \(text)", from: surface)
                }
            } catch {
                throw .malformed("\(error)")
            }
            note("\(message.path): waiting for a controller to move for \(text)", from: surface)
            return [OSCMessage(Self.root + "/midi/learn/armed", [.string(text)])]
        case "learn/cancel":
            try expectNoArguments(message)
            midi.disarm()
            return [OSCMessage(Self.root + "/midi/learn/cancelled")]
        case "save":
            let path = try saveTarget(message, defaultPath: midi.preset.path)
            do {
                try midi.savePreset(to: path)
            } catch {
                throw .failed("cannot save the MIDI mappings: \(error)")
            }
            note("\(message.path): wrote \(path)", from: surface)
            return [OSCMessage(Self.root + "/midi/saved", [.string(path)])]
        default:
            throw .unknownAddress("MIDI commands: learn s, learn/cancel, save [s]")
        }
    }
}
