// Starts MIDI control of a live session: the `midi_in` port, the control thread applying the preset's `[midi]` map, file source presses. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackJACK
import FoldbackControl
import Foundation
import FoldbackPresets

extension LiveSession {
    /// Registers `midi_in` and starts the thread that applies the preset's `[midi]` map; status notes
    /// (a program change with no setlist, a refused value, a learned mapping) go to standard error.
    /// Set the returned loop's `controller.onProgramChange` to switch setlist entries.
    package func startMIDI() throws(JACKError) -> MIDIInputLoop {
        try host.registerMIDIInput()
        let controller = MIDIController(preset: preset, engine: engine)
        controller.onNote = { StandardError.writeLine("foldback: \($0)") }
        controller.onSourceTransport = { [weak self] strip, command in self?.pressSourceTransport(command, strip: strip) }
        controller.onTempoTap = { [weak self] time in self?.tapTempo(at: time) }
        let host = host
        let loop = MIDIInputLoop(controller: controller, source: { host.nextMIDIMessage() })
        // The thread sleeps while nothing is connected to midi_in; JACK's notification thread wakes it on a connection.
        host.observeConnections { loop.updateConnection { host.isMIDIInputConnected } }
        loop.updateConnection { host.isMIDIInputConnected }
        return loop
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

extension LiveSession {
    /// A MIDI press of `strip.<strip>.source.<command>` (`play`, `stop`, `cue`) on the strip's file player, logged.
    func pressSourceTransport(_ command: String, strip: String) {
        let transport: SourceTransportCommand = command == "play" ? .play : command == "stop" ? .stop : .cue
        do {
            let state = try sourceTransport(transport, strip: strip)
            StandardError.writeLine("foldback: MIDI: \(strip) file player \(command): \(state.isPlaying ? "playing" : "stopped") at \(String(format: "%.1f", state.position)) s")
        } catch {
            StandardError.writeLine("foldback: MIDI: strip.\(strip).source.\(command): \(error)")
        }
    }
}

extension LiveSession {
    /// A MIDI press of `tempo.tap`: one tap of the show tempo at `time`; a changed tempo retimes every echo, logged.
    func tapTempo(at time: Double) {
        guard let bpm = showTempo.tap(at: time) else { return }
        do {
            let count = try ShowTempo.retimeEchoes(to: Float(bpm), in: engine)
            StandardError.writeLine("foldback: MIDI: tempo tap: \(String(format: "%.1f", bpm)) BPM on \(count) echo unit(s)")
        } catch {
            StandardError.writeLine("foldback: MIDI: tempo.tap: \(error)")
        }
    }
}
