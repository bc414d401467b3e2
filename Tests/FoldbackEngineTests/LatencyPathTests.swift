// Per-path latency in a graph's layout: strip unit latencies plus the bus limiter's lookahead, path by path.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class LatencyPathTests: XCTestCase {
    /// Strip `slow` (units of 30 + 12 frames) sends to a limited stereo bus and a plain mono bus; strip `fast`
    /// (no latency) sends only to the limited bus. Without compensation each input-output pair gets exactly
    /// its own path's latency; with it (the default) `fast` is delayed to arrive with `slow`.
    func testEachPathCarriesItsStripAndBusLatency() throws {
        let lookahead = 72   // 1.5 ms at 48 kHz
        for isCompensated in [false, true] {
            let limiter = LimiterSettings(lookaheadMs: 1.5)
            let graph = try EngineGraph(GraphDescription(
                strips: [
                    StripDescription(name: "slow", channels: 1, units: [ProbeUnit(latency: 30), ProbeUnit(latency: 12)],
                                     sends: [SendDescription(bus: 0), SendDescription(bus: 1)]),
                    StripDescription(name: "fast", channels: 2, sends: [SendDescription(bus: 0)]),
                ],
                buses: [BusDescription(name: "main", channels: 2, limiter: limiter, isCompensated: isCompensated),
                        BusDescription(name: "wedge", channels: 1)]),
                sampleRate: 48_000, maxFrames: 253)
            var latency: [String: Int] = [:]
            for path in graph.layout.latencyPaths { latency["\(path.input)→\(path.output)"] = path.frames }
            let fast = isCompensated ? 42 + lookahead : lookahead
            XCTAssertEqual(latency, [
                "slow_in→main_L": 42 + lookahead, "slow_in→main_R": 42 + lookahead, "slow_in→wedge": 42,
                "fast_in_L→main_L": fast, "fast_in_L→main_R": fast,
                "fast_in_R→main_L": fast, "fast_in_R→main_R": fast,
            ], "compensated: \(isCompensated)")
            XCTAssertEqual(graph.layout.latencyFrames, 42 + lookahead, "the graph-wide worst case is unchanged")
        }
    }

    /// A strip with no sends reaches no output: no path, whatever its latency.
    func testAStripWithoutSendsHasNoPath() throws {
        let graph = try EngineGraph(GraphDescription(
            strips: [StripDescription(name: "idle", channels: 1, units: [ProbeUnit(latency: 7)])],
            buses: [BusDescription(name: "out", channels: 1)]), sampleRate: 44_100, maxFrames: 7)
        XCTAssertEqual(graph.layout.latencyPaths, [])
    }
}
