// Tap tempo: the show tempo from the engineer's (or a MIDI button's) taps. Non-realtime (control threads).
// SPDX-License-Identifier: GPL-3.0-or-later

/// Turns taps into a tempo: the average interval of the last taps of a run (taps under ``window`` apart).
///
/// A lone tap (the first of a run) sets nothing; each later tap gives the run's average interval (of at most
/// ``maximumTaps`` taps), which becomes the tempo unless it is within ``jitterTolerance`` of the beat in force,
/// so an engineer tapping along to a steady tempo does not keep nudging the echoes. A tap more than
/// ``window`` after the previous one starts a new run.
public struct TapTempo: Sendable {
    /// Taps further apart than this, in seconds, start a new run.
    public static let window = 2.0
    /// A new average beat this close to the one in force, in seconds, leaves the tempo alone.
    public static let jitterTolerance = 0.010
    /// The most taps a run averages (the latest ones).
    public static let maximumTaps = 8
    /// The tempi a tap can set, in BPM.
    public static let tempoRange: ClosedRange<Double> = 20...300

    private var taps: [Double] = []
    /// The tempo the taps have set, in BPM (nil before any run of two taps).
    public private(set) var bpm: Double?

    /// A tapper with no tempo yet, or with `bpm` in force (a setlist's, say) that taps may change.
    public init(bpm: Double? = nil) {
        self.bpm = bpm
    }

    /// Records a tap at `time` seconds (any monotonic clock); returns the new tempo when this tap changes
    /// it, nil when it does not (a lone tap, or a beat within the jitter tolerance).
    public mutating func tap(at time: Double) -> Double? {
        if let last = taps.last, !(time > last && time - last <= Self.window) { taps.removeAll() }
        taps.append(time)
        if taps.count > Self.maximumTaps { taps.removeFirst(taps.count - Self.maximumTaps) }
        guard taps.count >= 2, let first = taps.first, let last = taps.last else { return nil }
        let beat = (last - first) / Double(taps.count - 1)
        if let current = bpm, abs(60 / current - beat) < Self.jitterTolerance { return nil }
        let tempo = min(max(60 / beat, Self.tempoRange.lowerBound), Self.tempoRange.upperBound)
        bpm = tempo
        return tempo
    }

    /// Sets the tempo from elsewhere (a setlist, a clock); the taps of a run in progress are kept.
    public mutating func set(bpm: Double) {
        self.bpm = bpm
    }
}
