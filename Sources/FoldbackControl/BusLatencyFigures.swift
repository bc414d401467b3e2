// The latency figures of one bus as the engineer reads them: what Foldback adds, and the round trip JACK reports. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets

/// How late a bus's signal reaches the ears: Foldback's part (strip units and the bus limiter on its
/// slowest path) and the whole round trip JACK computes from the capture ports feeding the bus to the
/// playback ports it feeds. `foldback run` prints them at start, the meter view shows them, OSC answers
/// `/foldback/bus/<bus>/latency/get` with them.
public struct BusLatencyFigures: Sendable, Hashable {
    /// The bus name.
    public var bus: String
    /// Whether the bus is an in-ear mix (`in_ear = true`), held to ``BusSpec/inEarRoundTripBudgetMs``.
    public var isInEar: Bool
    /// The server's sample rate, Hz.
    public var sampleRate: Double
    /// What Foldback adds on the slowest path into the bus, frames.
    public var addedFrames: Int
    /// Capture side + Foldback + playback side as JACK reports it, frames; nil while unknown (no server).
    public var roundTripFrames: Int?
    /// Whether the bus feeds a port with playback latency; if not, the round trip lacks the playback side.
    public var reachesPlayback: Bool

    /// Figures for `bus`.
    public init(bus: String, isInEar: Bool, sampleRate: Double, addedFrames: Int, roundTripFrames: Int?, reachesPlayback: Bool) {
        self.bus = bus
        self.isInEar = isInEar
        self.sampleRate = sampleRate
        self.addedFrames = addedFrames
        self.roundTripFrames = roundTripFrames
        self.reachesPlayback = reachesPlayback
    }

    /// ``addedFrames`` in milliseconds.
    public var addedMs: Double { milliseconds(addedFrames) }
    /// ``roundTripFrames`` in milliseconds.
    public var roundTripMs: Double? { roundTripFrames.map(milliseconds) }

    private func milliseconds(_ frames: Int) -> Double { sampleRate > 0 ? Double(frames) * 1000 / sampleRate : 0 }
    private func text(_ frames: Int) -> String { NumberFormatting.milliseconds(frames: frames, sampleRate: sampleRate) }

    /// An in-ear bus whose round trip passes the budget.
    public var exceedsInEarBudget: Bool { isInEar && (roundTripMs ?? 0) > BusSpec.inEarRoundTripBudgetMs }

    /// `iem_vox: Foldback adds 0.00 ms (0 frames); round trip 2.67 ms (128 frames)`.
    public var summary: String {
        var line = "\(bus)\(isInEar ? " (in-ear)" : ""): Foldback adds \(text(addedFrames)) ms (\(addedFrames) frames)"
        if let roundTripFrames {
            line += "; round trip \(text(roundTripFrames)) ms (\(roundTripFrames) frames)"
            if !reachesPlayback { line += ", not counting playback: the bus feeds no playback port" }
        } else {
            line += "; round trip unknown (no JACK server)"
        }
        return line
    }

    /// The warning `foldback run` prints for an in-ear bus over budget, or nil.
    public var budgetWarning: String? {
        guard exceedsInEarBudget, let roundTripFrames else { return nil }
        var advice = "use a smaller JACK period"
        if addedFrames > 0 { advice = "set limiter_mode = \"zero_latency\" on the bus, drop lookahead units from its strips, or " + advice }
        return "in-ear bus '\(bus)' has a round trip of \(text(roundTripFrames)) ms, over the \(NumberFormatting.plain(BusSpec.inEarRoundTripBudgetMs)) ms "
            + "a singer tolerates (Foldback adds \(text(addedFrames)) ms of it): \(advice)"
    }
}
