// The rest phase of foldback-rtcheck: a graph of built-in units on digital silence, skipped whole (GraphRest) on the audio thread. Setup non-realtime; its cycles realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import FoldbackFeedback

/// After the main scenario: a show of built-in units (EQ, compressors with and without lookahead, a reverb on an effect
/// bus and its return, a feedback suppressor with its analysis worker, limiters) fed exact zeros, so after its first
/// chunks the whole graph rests and each cycle only moves clocks, meters and output ports, under the same allocation
/// count (or RealtimeSanitizer) as the rest of the run.
enum RealtimeRest {
    static let cycles = 3000

    /// Runs the phase on `engine`; returns its summary and failures.
    static func run(engine: Engine, frames: Int, maxFrames: Int) throws -> (summary: String, failures: [String]) {
        let graph = try self.graph(maxFrames: maxFrames)
        try engine.install(graph, crossfade: .none)
        let audio = AudioThreadDriver(engine: engine, cycles: cycles, frames: frames, paceMicroseconds: 20, injectFault: false, isSilent: true)
        audio.start()
        audio.join()
        engine.collectGarbage()
        var failures: [String] = []
        // The first chunks render in full (the graph was just installed and the compressor's line drains); then it rests.
        if graph.restChunks < cycles * 9 / 10 { failures.append("the silent graph rested in only \(graph.restChunks) of \(cycles) cycles") }
        if audio.peak != 0 { failures.append("the silent graph played \(audio.peak)") }
        return ("rest phase: \(graph.restChunks) of \(cycles) silent cycles skipped whole", failures)
    }

    private static func graph(maxFrames: Int) throws(EngineError) -> EngineGraph {
        var lookahead = CompressorSettings()
        lookahead.lookaheadMs = 2
        var feedback = FeedbackSettings()
        feedback.mode = .live
        var verbReturn = StripDescription(name: "verb_ret", channels: 2, units: [EQUnit(bands: [EQBand(type: .highPass, frequency: 150, q: 0.7)])],
                                          sends: [SendDescription(bus: 0, gainDB: -6), SendDescription(bus: 1, gainDB: -12, isPreFader: true)])
        verbReturn.returnBus = 2
        let strips = [
            StripDescription(name: "vox", channels: 1, units: [GainUnit(gainDB: 6), CompressorUnit(settings: lookahead)],
                             sends: [SendDescription(bus: 0), SendDescription(bus: 1, isPreFader: true), SendDescription(bus: 2, gainDB: -6)]),
            StripDescription(name: "keys", channels: 2, units: [EQUnit(bands: [EQBand(type: .peak, frequency: 900, gainDB: -4, q: 1)]), CompressorUnit()],
                             sends: [SendDescription(bus: 0, gainDB: -3), SendDescription(bus: 1, gainDB: -10, isPreFader: true)]),
            verbReturn,
        ]
        let buses = [
            BusDescription(name: "main", channels: 2, limiter: LimiterSettings()),
            BusDescription(name: "wedge", channels: 1, limiter: LimiterSettings(ceilingDB: -3, mode: .zeroLatency),
                           units: [FeedbackUnit(settings: feedback, label: "rtcheck rest wedge")]),
            BusDescription(name: "verb", channels: 2, units: [ReverbUnit(settings: ReverbParameters(decay: 1.2, mix: 1))], hasOutput: false),
        ]
        return try EngineGraph(GraphDescription(strips: strips, buses: buses), sampleRate: RealtimeScenario.sampleRate, maxFrames: maxFrames)
    }
}
