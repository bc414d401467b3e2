// Paths of different latency into one bus are delayed to the slowest: one aligned impulse; compensate = false keeps them apart.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class DelayCompensationTests: XCTestCase {
    /// A compressor that only looks ahead (ratio 1): the signal passes unchanged, `lookaheadMs` late.
    private func lookahead(_ milliseconds: Float) -> CompressorUnit {
        CompressorUnit(values: ["lookahead_ms": milliseconds, "ratio": 1, "threshold_db": 0, "makeup_db": 0])
    }

    private func twoPaths(isCompensated: Bool = true) -> GraphDescription {
        GraphDescription(
            strips: [
                StripDescription(name: "slow", channels: 1, units: [lookahead(2)], sends: [SendDescription(bus: 0)]),
                StripDescription(name: "fast", channels: 1, sends: [SendDescription(bus: 0, gainDB: -6)]),
            ],
            buses: [BusDescription(name: "main", channels: 1, isCompensated: isCompensated)])
    }

    func testOneImpulseThroughTwoStripsOfDifferentLatencyArrivesAsOne() throws {
        for sampleRate in [44100.0, 48000, 96000] {
            for blockSize in [1, 7, 253, 1024] where !(blockSize == 1 && sampleRate != 48000) {
                let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
                let graph = try host.install(twoPaths(), sampleRate: sampleRate)
                let latency = Int((0.002 * sampleRate).rounded())
                XCTAssertEqual(graph.layout.latencyFrames, latency)
                XCTAssertEqual(graph.layout.busLatencies[0].frames, latency...latency, "aligned: one latency at the bus")
                XCTAssertEqual(graph.layout.busLatencies[0].sends.map(\.delayFrames), [0, latency], "the fast path is delayed")
                XCTAssertEqual(Set(graph.layout.latencyPaths.map(\.frames)), [latency], "JACK hears one latency on every path")
                var impulse = [Float](repeating: 0, count: 3000)
                impulse[1000] = 0.5
                let output = host.render([impulse, impulse], blockSize: blockSize)
                let hits = output[0].indices.filter { abs(output[0][$0]) > 1e-6 }
                XCTAssertEqual(hits, [1000 + latency], "\(sampleRate) Hz, block \(blockSize): a single aligned impulse")
                XCTAssertEqual(output[0][1000 + latency], 0.5 + 0.5 * Decibels.linearGain(fromDecibels: -6), accuracy: 1e-5)
            }
        }
    }

    func testWithoutCompensationThePathsStayApart() throws {
        let host = OfflineEngine(maxFrames: 256, inputs: 2, outputs: 1)
        let graph = try host.install(twoPaths(isCompensated: false), sampleRate: 48000, graphMaxFrames: 256)
        XCTAssertEqual(graph.layout.busLatencies[0].frames, 0...96)
        XCTAssertEqual(Set(graph.layout.latencyPaths.map(\.frames)), [0, 96])
        var impulse = [Float](repeating: 0, count: 600)
        impulse[100] = 0.5
        let output = host.render([impulse, impulse], blockSize: 253)
        XCTAssertEqual(output[0].indices.filter { abs(output[0][$0]) > 1e-6 }, [100, 196])
    }

    func testAnEffectReturnWithLatencyIsAlignedWithTheDryPath() throws {
        var ret = StripDescription(name: "fx_ret", channels: 1, sends: [SendDescription(bus: 0)])
        ret.returnBus = 1
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1)]), ret],
            buses: [BusDescription(name: "main", channels: 1), BusDescription(name: "fx", channels: 1, units: [lookahead(1)], hasOutput: false)])
        let host = OfflineEngine(maxFrames: 64, inputs: 1, outputs: 1)
        let graph = try host.install(description, sampleRate: 48000, graphMaxFrames: 64)
        XCTAssertEqual(graph.layout.busLatencies[1].unitFrames, 48)
        XCTAssertEqual(graph.layout.latencyFrames, 48)
        var impulse = [Float](repeating: 0, count: 400)
        impulse[10] = 0.25
        let output = host.render([impulse], blockSize: 7)
        XCTAssertEqual(output[0].indices.filter { abs(output[0][$0]) > 1e-6 }, [58])
        XCTAssertEqual(output[0][58], 0.5, accuracy: 1e-6)
    }

    func testADelayedStripThatGoesQuietPlaysOutItsLineAndNothingStale() throws {
        let host = OfflineEngine(maxFrames: 64, inputs: 2, outputs: 1)
        try host.install(twoPaths(), sampleRate: 48000, graphMaxFrames: 64)
        var impulse = [Float](repeating: 0, count: 2000)
        impulse[50] = 0.5
        let output = try host.render([[Float](repeating: 0, count: 2000), impulse], blockSize: 7) { cycle, _ in
            if cycle == 8 { try host.engine.set(.stripMute(strip: 1), to: 1) }   // muted after the impulse entered the line
        }
        let hits = output[0].indices.filter { abs(output[0][$0]) > 1e-6 }
        XCTAssertEqual(hits, [146], "the impulse in the line still arrives, once")
    }
}
