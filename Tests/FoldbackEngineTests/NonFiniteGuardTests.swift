// The NaN/Inf guard at every strip output: silences the strip for the chunk, resets its units, counts the trip.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class NonFiniteGuardTests: XCTestCase {
    func testANaNInputSilencesOnlyThatStripForTheBlockAndIsCounted() throws {
        let host = OfflineEngine(maxFrames: 64, inputs: 2, outputs: 1)
        let graph = try host.install(GraphDescription(
            strips: [
                StripDescription(name: "broken", channels: 1, units: [GainUnit(gainDB: 0)], sends: [SendDescription(bus: 0)]),
                StripDescription(name: "clean", channels: 1, sends: [SendDescription(bus: 0, gainDB: -6.0206)]),
            ],
            buses: [BusDescription(name: "main", channels: 1)]), sampleRate: 48000, graphMaxFrames: 64)
        var broken = [Float](repeating: 0.25, count: 256)
        broken[70] = .nan          // in the second 64-frame block
        broken[200] = .infinity    // in the fourth
        let clean = [Float](repeating: 1, count: 256)
        let output = host.render([broken, clean], blockSize: 64)[0]
        for frame in 0..<256 {
            let blockIsGuarded = (64..<128).contains(frame) || (192..<256).contains(frame)
            let expected: Float = (blockIsGuarded ? 0 : 0.25) + 0.5
            XCTAssertEqual(output[frame], expected, accuracy: 1e-6, "frame \(frame)")
        }
        let meters = graph.meters()
        XCTAssertEqual(meters.strips[0].reading.guardTrips, 2, "each guarded block is counted")
        XCTAssertEqual(meters.strips[1].reading.guardTrips, 0)
    }

    func testSilenceStaysSilentAndNeverTripsTheGuard() throws {
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2)
        let graph = try host.install(TestGraph.single(busChannels: 2, units: [GainUnit(gainDB: 12)]), sampleRate: 44100, graphMaxFrames: 256)
        let output = host.render([[Float](repeating: 0, count: 1024)], blockSize: 253)
        XCTAssertTrue(output.allSatisfy { $0.allSatisfy { $0 == 0 } })
        XCTAssertEqual(graph.meters().strips[0].reading.guardTrips, 0)
    }
}
