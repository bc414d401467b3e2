// The scenario's MIDI clock: ticks, start and stop handed to a MIDIClockTracker inside the realtime cycle, as JACKMIDICapture does; the echo follows it from the control loop. Realtime: cycle; the rest is non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// A clock at 120 BPM, then 96 BPM after a stop and a start, fed to the tracker the JACK callback uses
/// (`receive` per byte at its frame offset, `advance` once per cycle) inside the sanitized cycle.
enum RealtimeMIDIClock {
    static let tracker = MIDIClockTracker()
    nonisolated(unsafe) private static var frame = 0
    nonisolated(unsafe) private static var nextTick = 0
    nonisolated(unsafe) private static var cycle = 0
    /// Clock ticks sent to the tracker.
    nonisolated(unsafe) private static var sent = 0
    nonisolated(unsafe) static var retimes = 0
    nonisolated(unsafe) private static var lastBPM: Float = 0

    /// The cycle: the engine's, then this cycle's clock bytes. C-callable like `Engine.cycleFunction`.
    static let cycleFunction: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void = { context, frames in
        Engine.cycleFunction(context, frames)
        let interval = cycle < 5_000 ? 1_000 : 1_250   // frames per tick at 48 kHz: 120 BPM, then 96 BPM
        if cycle == 0 || cycle == 5_000 { tracker.receive(0xFA, offset: 0) }
        if cycle == 4_990 { tracker.receive(0xFC, offset: 0) }
        let end = frame + Int(frames)
        while nextTick < end {
            if cycle < 4_990 || cycle >= 5_000 {
                tracker.receive(0xF8, offset: nextTick - frame)
                sent += 1
            }
            nextTick += interval
        }
        frame = end
        tracker.advance(frames: Int(frames))
        cycle += 1
    }

    /// Setup, before the audio thread starts: Swift initialises a static on its first use, so the tracker and the
    /// cycle function are made here and not, allocating, in the first cycle that reaches them.
    static func prepare() {
        _ = tracker
        _ = cycleFunction
    }

    /// Control loop: sets the echo's tempo to the clock's (rounded to 0.1 BPM) when it changed, as the live session does.
    static func follow(_ engine: Engine) throws {
        guard tracker.tickCount > 0, let bpm = tracker.tempo(sampleRate: 48_000) else { return }
        let rounded = Float((bpm * 10).rounded() / 10)
        guard rounded != lastBPM else { return }
        try engine.set(.unitParameter(strip: 3, unit: RealtimeScenario.echo, parameter: Int(EchoUnit.tempoParameter)), to: rounded)
        lastBPM = rounded
        retimes += 1
    }

    static var failures: [String] {
        var failures: [String] = []
        if sent < 500 || tracker.tickCount != sent { failures.append("the tracker counted \(tracker.tickCount) of \(sent) MIDI clock ticks sent (500 at least)") }
        if abs((tracker.tempo(sampleRate: 48_000) ?? 0) - 96) > 0.1 { failures.append("the MIDI clock read \(tracker.tempo(sampleRate: 48_000) ?? 0) BPM, not 96") }
        if retimes < 2 { failures.append("the echo followed the MIDI clock only \(retimes)×") }
        return failures
    }

    static var summary: String { "MIDI clock \(tracker.tickCount) ticks, echo retimed \(retimes)× (last \(lastBPM) BPM)" }
}
