// UnitActivity: while a unit runs, its render lane's slot holds the unit's index; between chains it is empty; the graph names the index. Non-realtime (test thread, and render workers).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class UnitActivityTests: XCTestCase {
    /// Strips `a` [spy, spy], `b` [spy] and bus `m` [spy]: each spy, inside its process, finds its own render
    /// index among the lanes' running units (the graph lays out the buses' units first: m's is 0, then a's 1 and 2,
    /// b's 3); after the cycle no lane is inside a unit.
    func testEachUnitSeesItsOwnIndexWhileItRuns() throws {
        for threads in [1, 3] {
            let offline = OfflineEngine(maxFrames: 256, inputs: 2, outputs: 1, renderThreads: threads)
            let spies = (0..<4).map { _ in ActivitySpy(activity: offline.engine.unitActivity) }
            let graph = try offline.install(GraphDescription(
                strips: [
                    StripDescription(name: "a", channels: 1, units: [spies[0], spies[1]], unitIDs: ["eq", "verb"], sends: [SendDescription(bus: 0)]),
                    StripDescription(name: "b", channels: 1, units: [spies[2]], sends: [SendDescription(bus: 0)]),
                ],
                buses: [BusDescription(name: "m", channels: 1, units: [spies[3]], unitIDs: ["lim"])]), sampleRate: 48000, crossfade: .none)
            _ = offline.render([[Float](repeating: 0.1, count: 256), [Float](repeating: 0.2, count: 256)], blockSize: 64)
            for (index, spy) in zip([1, 2, 3, 0], spies) {
                XCTAssertEqual(spy.seen.count, 4, "threads \(threads) unit \(index): one look per cycle")
                XCTAssertTrue(spy.seen.allSatisfy { $0.contains(index) }, "threads \(threads) unit \(index) saw \(spy.seen)")
            }
            XCTAssertEqual(offline.engine.unitActivity.runningUnits(), [], "threads \(threads): no lane inside a unit between cycles")
            XCTAssertEqual(offline.engine.unitActivity.laneCount, threads)
            XCTAssertEqual(graph.unitName(atRenderIndex: 0), "bus 'm' unit 'lim' (activity-spy)")
            XCTAssertEqual(graph.unitName(atRenderIndex: 2), "strip 'a' unit 'verb' (activity-spy)")
            XCTAssertEqual(graph.unitName(atRenderIndex: 3), "strip 'b' unit 'activity-spy' (activity-spy)")
            XCTAssertNil(graph.unitName(atRenderIndex: 4))
        }
    }
}

/// A pass-through unit that, inside its process, notes which units the engine's lanes are running (test only: it allocates).
private final class ActivitySpy: EngineUnit, @unchecked Sendable {
    let typeName = "activity-spy"
    let parameters: [ParameterDescriptor] = []
    private let state: UnsafeMutablePointer<State>

    struct State {
        let activity: UnitActivity
        var seen: [[Int]] = []
    }

    init(activity: UnitActivity) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(activity: activity))
    }

    deinit {
        state.deinitialize(count: 1).deallocate()
    }

    /// What each process call saw.
    var seen: [[Int]] { state.pointee.seen }

    func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        UnitRenderSlot(functions: Self.functions, state: UnsafeMutableRawPointer(state), inputChannels: channels, outputChannels: channels)
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let spy = state.assumingMemoryBound(to: State.self)
            spy.pointee.seen.append(spy.pointee.activity.runningUnits())
            outputs[0].update(from: inputs[0], count: Int(frames))
        },
        setParameter: { _, _, _ in },
        reset: { _ in })
}
