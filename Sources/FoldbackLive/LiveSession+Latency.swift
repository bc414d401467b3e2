// A live session's latency figures per bus: Foldback's part from the graph, the round trip from JACK; the in-ear warning. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
import FoldbackEngine
import FoldbackJACK
import FoldbackPresets

extension LiveSession {
    /// The figures of bus `name`, or nil for no such bus or an effect bus (no ports: its returns carry its
    /// latency into the buses that have them). The round trip is the largest over the bus's
    /// ports of JACK's capture latency (capture side plus what Foldback reports) plus its playback latency.
    package func busLatency(named name: String) -> BusLatencyFigures? {
        let layout = host.layout
        guard let spec = preset.bus(named: name), spec.hasOutput, let added = layout.busLatencies.first(where: { $0.bus == name }) else { return nil }
        let trips = PortNaming.outputPortNames(bus: name, channels: spec.channels).compactMap { host.roundTrip(ofOutput: $0) }
        return BusLatencyFigures(
            bus: name, isInEar: spec.isInEar, sampleRate: host.sampleRate, addedFrames: added.frames.upperBound,
            roundTripFrames: trips.isEmpty ? nil : trips.map(\.roundTripFrames).max(),
            reachesPlayback: trips.contains { $0.playbackFrames > 0 })
    }

    /// Every bus's figures, in preset order, after asking JACK to bring its totals up to date.
    package func busLatencies() -> [BusLatencyFigures] {
        host.recomputeLatencies()
        return preset.buses.compactMap { busLatency(named: $0.name) }
    }

    /// The start-up report: one line per bus, then a warning for each in-ear bus over budget.
    package func latencyReport() -> [String] {
        let figures = busLatencies()
        guard !figures.isEmpty else { return [] }
        return ["foldback: latency per bus (JACK \(Int(host.sampleRate)) Hz, \(host.bufferSize) frames):"]
            + figures.map { "  " + $0.summary }
            + figures.compactMap { $0.budgetWarning.map { "foldback: warning: " + $0 } }
    }
}
