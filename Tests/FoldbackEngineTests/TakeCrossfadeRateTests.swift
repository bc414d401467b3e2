// The live ↔ take crossfade lasts TakeSource.crossfadeSeconds at the rate of the graph playing the take, whatever rate the take was opened at. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class TakeCrossfadeRateTests: XCTestCase {
    /// One take source reused by graphs at 44.1, 48 and 96 kHz (as a show whose JACK server restarts at another
    /// rate): a strip on a take of constant 0.5 switched to its silent port fades out over 20 ms of *that* graph's frames.
    func testTheCrossfadeLastsTwentyMillisecondsAtEachGraphsRate() throws {
        let source = TakeSource(strips: ["s0"], channelOfStrip: ["s0": 0], channels: 1, maxFrames: 1024, onTake: true)
        let switchAt = 2_048   // after the fade onto the take that each new graph starts with (the last one faded to live)
        for rate in [44_100.0, 48_000, 96_000] {
            XCTAssertTrue(source.setOnTake(true, strip: "s0"))
            let description = GraphDescription(
                strips: [StripDescription(name: "s0", channels: 1, sends: [SendDescription(bus: 0)])],
                buses: [BusDescription(name: "main", channels: 1)])
            let graph = try EngineGraph(description, sampleRate: rate, maxFrames: 1024)
            try graph.attachTake(source)
            let offline = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try offline.engine.install(graph, crossfade: .none)
            let frames = switchAt + Int(rate * 0.05)
            let take = [Float](repeating: 0.5, count: frames)
            XCTAssertTrue(take.withUnsafeBufferPointer { source.ring.fill(from: $0.baseAddress!, frames: frames) })
            let output = offline.render([[Float](repeating: 0, count: frames)], blockSize: 64) { _, start in
                if start == switchAt { source.setOnTake(false, strip: "s0") }
            }[0]
            XCTAssertEqual(output[switchAt - 1], 0.5, accuracy: 1e-6, "on the take before the switch at \(rate) Hz")
            let fading = output[switchAt...].prefix { $0 > 1e-7 }.count
            let expected = TakeSource.crossfadeSeconds * rate
            XCTAssertEqual(Double(fading), expected - 1, accuracy: 1.5, "the fade's frames at \(rate) Hz")
            XCTAssertEqual(output[switchAt + Int(expected / 2) - 1], 0.25, accuracy: 0.001, "half way through the fade at \(rate) Hz")
            XCTAssertEqual(output.last ?? 1, 0, "live (silent) after the fade at \(rate) Hz")
        }
    }
}
