// The show tempo: one BPM per show, where it came from, the taps that set it, and retiming every echo to it. Non-realtime (control threads).
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import Foundation
import Synchronization

/// One tempo per show (the tree's `tempo/bpm`), followed by every `echo`'s `tempo_bpm`, and what sets it
/// (`tempo/source`, a ``TempoSource``): a setlist song's `bpm`, taps (OSC, the pages, a MIDI button, a value set
/// by hand), MIDI clock or JACK transport. A tempo is taken when the source in force accepts its origin
/// (``TempoSource/accepts(_:)``): taps always, a song's unless only taps count, a clock's when it is the source.
public final class ShowTempo: Sendable {
    private struct State {
        var bpm: Double?
        var source: TempoSource
        var origin: TempoSource?
        var taps = TapTempo()
    }

    private let state: Mutex<State>

    /// A show tempo following `source`, at `bpm` (a preset's echo tempo) until something sets it.
    public init(source: TempoSource = .setlist, bpm: Double? = nil) {
        state = Mutex(State(bpm: bpm, source: source, origin: nil, taps: TapTempo(bpm: bpm)))
    }

    /// The tempo in force, in BPM (nil before any).
    public var bpm: Double? { state.withLock { $0.bpm } }
    /// What the tempo follows.
    public var source: TempoSource { state.withLock { $0.source } }
    /// Where the tempo in force came from (nil: the preset's own).
    public var origin: TempoSource? { state.withLock { $0.origin } }

    /// Makes the tempo follow `source`.
    public func setSource(_ source: TempoSource) {
        state.withLock { $0.source = source }
    }

    /// Offers `bpm` (clamped to 20 … 300) from `origin`; returns the tempo to set on the echoes when the source
    /// in force takes it and it differs from the tempo in force by 0.01 BPM or more, nil otherwise.
    public func offer(_ bpm: Double, from origin: TempoSource) -> Double? {
        guard bpm.isFinite else { return nil }
        let tempo = min(max(bpm, TapTempo.tempoRange.lowerBound), TapTempo.tempoRange.upperBound)
        return state.withLock { state in
            guard state.source.accepts(origin) else { return nil }
            state.origin = origin
            if let current = state.bpm, abs(current - tempo) < 0.01 { return nil }
            state.bpm = tempo
            state.taps.set(bpm: tempo)
            return tempo
        }
    }

    /// A tap at `time` seconds (``TapTempo``: a lone tap and a beat within 10 ms of the tempo change nothing);
    /// returns the new tempo when it changes.
    public func tap(at time: Double) -> Double? {
        let tapped = state.withLock { $0.taps.tap(at: time) }
        return tapped.flatMap { offer($0, from: .tap) }
    }

    /// "♩ 120.0 BPM (setlist)", for status lines; nil before any tempo.
    public var statusText: String? {
        state.withLock { state in
            state.bpm.map { String(format: "♩ %.1f BPM", $0) + " (\(state.origin?.name ?? "preset"))" }
        }
    }

    /// Sets `tempo_bpm` to `bpm` on every `echo` of `engine`'s latest graph, strips and buses; returns how many.
    @discardableResult
    public static func retimeEchoes(to bpm: Float, in engine: Engine) throws(EngineError) -> Int {
        guard let graph = engine.graph else { throw .noGraph }
        var count = 0
        let parameter = Int(EchoUnit.tempoParameter)
        for (strip, description) in graph.description.strips.enumerated() {
            for (unit, engineUnit) in description.units.enumerated() where engineUnit is EchoUnit {
                try engine.set(.unitParameter(strip: strip, unit: unit, parameter: parameter), to: bpm)
                count += 1
            }
        }
        for (bus, description) in graph.description.buses.enumerated() {
            for (unit, engineUnit) in description.units.enumerated() where engineUnit is EchoUnit {
                try engine.set(.busUnitParameter(bus: bus, unit: unit, parameter: parameter), to: bpm)
                count += 1
            }
        }
        return count
    }
}
