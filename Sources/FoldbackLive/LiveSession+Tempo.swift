// The show tempo following MIDI clock on midi_in or JACK transport's timebase master, polled from the session's main loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackJACK
import Foundation

extension LiveSession {
    /// Makes the show tempo follow its clock source on every main-loop tick (10 a second): with `tempo/source` =
    /// `midi_clock`, the MIDI clock on `midi_in` while its ticks keep coming; with `jack_transport`, the timebase
    /// master's BBT tempo. Each is rounded to 0.1 BPM, so a steady clock does not keep retiming the echoes;
    /// a change is set on every echo (glided or crossfaded as each says) and noted on standard error.
    package func followTempoClocks() {
        var lastTicks = host.midiClock.ticks
        tickHandlers.append { [weak self] in
            guard let self else { return }
            let clock = host.midiClock
            defer { lastTicks = clock.ticks }
            let offered: (bpm: Double, origin: TempoSource)?
            switch showTempo.source {
            case .midiClock: offered = clock.ticks != lastTicks ? clock.bpm.map { ($0, .midiClock) } : nil
            case .jackTransport: offered = host.transportTempo.map { ($0, .jackTransport) }
            case .setlist, .tap: offered = nil
            }
            guard let (bpm, origin) = offered, let tempo = showTempo.offer((bpm * 10).rounded() / 10, from: origin) else { return }
            do {
                try ShowTempo.retimeEchoes(to: Float(tempo), in: engine)
                StandardError.writeLine("foldback: tempo \(String(format: "%.1f", tempo)) BPM from \(origin.name)")
            } catch {
                StandardError.writeLine("foldback: warning: tempo \(String(format: "%.1f", tempo)) BPM from \(origin.name) not set: \(error)")
            }
        }
    }
}
