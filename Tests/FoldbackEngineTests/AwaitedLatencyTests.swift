// A unit that knows its latency only once what it started is ready (a plugin sandbox): the graph prepares every unit first, then waits for them, and aligns on the awaited latency. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Synchronization
import XCTest

final class AwaitedLatencyTests: XCTestCase {
    /// What the units did, in order.
    private final class Journal: Sendable {
        let entries = Mutex<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    }

    /// A lookahead compressor (ratio 1: the signal passes, `milliseconds` late) whose slot says latency 0 when prepared
    /// and reports the real one through ``UnitRenderSlot/awaitLatency``, as a sandboxed plugin's slot does.
    private final class LateReportingUnit: EngineUnit {
        let name: String
        let inner: CompressorUnit
        let journal: Journal
        var typeName: String { "late" }
        var parameters: [ParameterDescriptor] { inner.parameters }

        init(_ name: String, milliseconds: Float, journal: Journal) {
            self.name = name
            self.journal = journal
            inner = CompressorUnit(values: ["lookahead_ms": milliseconds, "ratio": 1, "threshold_db": 0, "makeup_db": 0])
        }

        func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
            var slot = try inner.prepare(channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
            let latency = slot.latencyFrames
            slot.latencyFrames = 0
            journal.note("prepare \(name)")
            slot.awaitLatency = { [name, journal] in
                journal.note("await \(name)")
                return latency
            }
            return slot
        }
    }

    /// Strips `slow` (2 ms) and `fast` (1 ms) into bus `main` (0.5 ms), every unit reporting its latency late.
    private func graph(_ journal: Journal) -> GraphDescription {
        GraphDescription(
            strips: [
                StripDescription(name: "slow", channels: 1, units: [LateReportingUnit("slow", milliseconds: 2, journal: journal)], sends: [SendDescription(bus: 0)]),
                StripDescription(name: "fast", channels: 1, units: [LateReportingUnit("fast", milliseconds: 1, journal: journal)], sends: [SendDescription(bus: 0)]),
            ],
            buses: [BusDescription(name: "main", channels: 1, units: [LateReportingUnit("bus", milliseconds: 0.5, journal: journal)])])
    }

    func testUnitsArePreparedFirstThenAwaitedAndThePathsAlignOnTheAwaitedLatency() throws {
        for blockSize in [1, 7, 253] {
            let journal = Journal()
            let host = OfflineEngine(maxFrames: 256, inputs: 2, outputs: 1)
            let graph = try host.install(graph(journal), sampleRate: 48000, graphMaxFrames: 256)
            XCTAssertEqual(journal.entries.withLock { $0 }, ["prepare slow", "prepare fast", "prepare bus", "await slow", "await fast", "await bus"])
            XCTAssertEqual(graph.layout.latencyFrames, 96 + 24, "2 ms on the slow strip, then 0.5 ms on the bus")
            XCTAssertEqual(graph.layout.busLatencies[0].sends.map(\.delayFrames), [0, 48], "the fast path is delayed by the difference")
            var impulse = [Float](repeating: 0, count: 1000)
            impulse[100] = 0.5
            let output = host.render([impulse, impulse], blockSize: blockSize)
            XCTAssertEqual(output[0].indices.filter { abs(output[0][$0]) > 1e-6 }, [100 + 120], "block \(blockSize): one aligned impulse")
            XCTAssertEqual(output[0][220], 1, accuracy: 1e-5, "both paths' halves add up")
        }
    }
}
