// The bus safety limiter inside the engine: ceiling held on overdrive, exact delayed pass-through, latency in the layout.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class BusLimiterTests: XCTestCase {
    private func limitedGraph(ceilingDB: Float = -1, gainDB: Float = 0) -> GraphDescription {
        GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)], gainDB: gainDB)],
            buses: [BusDescription(name: "iem", channels: 2, limiter: LimiterSettings(ceilingDB: ceilingDB))])
    }

    func testTwentyDecibelsOfOverdriveNeverExceedTheCeiling() throws {
        for sampleRate in [44100.0, 48000, 96000] {
            for blockSize in [1, 7, 253, 1024] where !(blockSize == 1 && sampleRate != 48000) {
                let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
                try host.install(limitedGraph(gainDB: 20), sampleRate: sampleRate)
                let input = TestSignal.noise(frames: Int(sampleRate / 4), seed: 7, amplitude: 0.9)
                let output = host.render([input], blockSize: blockSize)
                let ceiling = Decibels.linearGain(fromDecibels: -1)
                let peak = output.flatMap { $0 }.map(abs).max() ?? 0
                XCTAssertLessThanOrEqual(peak, ceiling, "sample peak at \(sampleRate) Hz, block \(blockSize): the ceiling is a hard limit")
                XCTAssertGreaterThan(peak, ceiling * 0.9, "the limiter limits, it does not mute")
            }
        }
    }

    func testASignalBelowTheCeilingPassesExactlyDelayedByTheReportedLatency() throws {
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2)
        let graph = try host.install(limitedGraph(), sampleRate: 48000, graphMaxFrames: 256)
        let latency = graph.layout.latencyFrames
        XCTAssertEqual(latency, 72, "1.5 ms lookahead at 48 kHz is the bus's latency")
        let input = TestSignal.noise(frames: 4096, seed: 3, amplitude: 0.5)
        let output = host.render([input], blockSize: 253)
        let centre = Float(0.5.squareRoot())
        for frame in latency..<4096 {
            XCTAssertEqual(output[0][frame], input[frame - latency] * centre, accuracy: 1e-6, "frame \(frame)")
        }
        XCTAssertTrue(output[0][0..<latency].allSatisfy { $0 == 0 })
    }

    func testABusWithoutALimiterAddsNoLatency() throws {
        let graph = try EngineGraph(
            GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
                             buses: [BusDescription(name: "main", channels: 2)]),
            sampleRate: 48000, maxFrames: 64)
        XCTAssertEqual(graph.layout.latencyFrames, 0)
    }
}
