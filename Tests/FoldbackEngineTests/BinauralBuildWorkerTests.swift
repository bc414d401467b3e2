// A live engine's binaural moves: built on the graph's fb-binaural thread, the latest position wins, the thread ends with its graph.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackEngine
import FoldbackDSP
import Foundation
import XCTest

final class BinauralBuildWorkerTests: XCTestCase {
    private func graph(azimuth: Float) -> GraphDescription {
        var send = SendDescription(bus: 0)
        send.position = BinauralPosition(azimuthDeg: azimuth)
        var bus = BusDescription(name: "iem", channels: 2)
        bus.hrtf = BinauralBusTests.clickSet(sampleRate: 48000)
        return GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [send])], buses: [bus])
    }

    /// Waits (at most 2 s) until the graph's worker has built everything asked of it.
    private func waitForWorker(_ graph: EngineGraph) {
        guard let (cells, count) = graph.binauralCells else { return XCTFail("no binaural worker") }
        let deadline = Date().addingTimeInterval(2)
        while (0..<count).contains(where: { cells[$0].state.load(ordering: .acquiring) == BinauralBuildCell.asked }), Date() < deadline {
            usleep(200)
        }
    }

    /// Waits (at most 2 s) until `count` threads of this process are named `name`; returns how many are.
    private func threads(named name: String, becoming count: Int) -> Int {
        let deadline = Date().addingTimeInterval(2)
        while threads(named: name) != count, Date() < deadline { usleep(1000) }
        return threads(named: name)
    }

    /// Threads of this process named `name`.
    private func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?.hasPrefix(name) == true }.count
    }

    /// A source at −90° gets 100 moves, one a cycle of 64 frames (every 1.3 ms), ending at +90°; the cycles do not
    /// wait for the worker meanwhile. It builds fewer pairs than moves (a move while a pair is built or crossfades
    /// waits; the latest wins), and a click played afterwards lands where the click set puts +90°: the right ear 5
    /// frames after it × 1.5, the left 15 frames after × 0.5 (the reverse of −90°), to 1e-6.
    func testMovesAreBuiltOnTheWorkerAndEndAtTheLastPosition() throws {
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2, binauralWorker: true)
        let graph = try host.install(graph(azimuth: -90), sampleRate: 48000)
        let address = ParameterAddress.sendPosition(strip: 0, send: 0, axis: .azimuth)
        var input = [Float](repeating: 0, count: 24000)
        input[20000] = 1
        let out = try host.render([input], blockSize: 64) { cycle, _ in
            if (2...101).contains(cycle) {
                try host.engine.set(address, to: -90 + 180 * Float(cycle - 1) / 100)
            } else if cycle > 101 {
                waitForWorker(graph)
            }
        }
        assertFullyWritten(out)
        XCTAssertEqual(out[1][20005], 1.5, accuracy: 1e-6)
        XCTAssertEqual(out[0][20015], 0.5, accuracy: 1e-6)
        XCTAssertEqual(out[0][20005], 0, accuracy: 1e-6)
        let builds = graph.binauralWorkerBuilds
        XCTAssertGreaterThanOrEqual(builds, 2)
        XCTAssertLessThan(builds, 100)
        print("BinauralBuildWorkerTests: \(builds) pairs built for 100 moves")
    }

    /// The worker thread ends with its graph: replaced by a graph without binaural sends and collected, its
    /// fb-binaural thread is gone.
    func testTheWorkerEndsWithItsGraph() throws {
        let before = threads(named: "fb-binaural")   // another test's live graph may still be collected
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2, binauralWorker: true)
        do {
            try host.install(graph(azimuth: 30), sampleRate: 48000)
            host.renderSilence(frames: 1024, blockSize: 256)
        }
        XCTAssertEqual(threads(named: "fb-binaural", becoming: before + 1), before + 1)
        try host.install(GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
                                          buses: [BusDescription(name: "main", channels: 2)]), sampleRate: 48000, crossfade: .none)
        host.renderSilence(frames: 1024, blockSize: 256)
        host.engine.collectGarbage()
        XCTAssertEqual(threads(named: "fb-binaural", becoming: before), before, "stopped and joined by the graph's deinit")
    }
}
