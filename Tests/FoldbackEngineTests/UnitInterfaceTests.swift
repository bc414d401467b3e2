// The unit interface as the engine drives it: chunk sizes, no aliasing, unit chains, widening, parameters, latency, skipping.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class UnitInterfaceTests: XCTestCase {
    private func strip(_ units: [any EngineUnit], channels: Int = 1, bypassed: [Bool] = [], isEnabled: Bool = true) -> StripDescription {
        StripDescription(name: "vox", channels: channels, units: units, bypassedUnits: bypassed, sends: [SendDescription(bus: 0)], isEnabled: isEnabled)
    }

    func testUnitsAreNeverAskedForMoreThanTheGraphsMaxFrames() throws {
        for (graphMaxFrames, blockSize) in [(64, 1000), (1, 7), (253, 1024), (1024, 253)] {
            let probe = ProbeUnit()
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try host.install(GraphDescription(strips: [strip([probe])], buses: [BusDescription(name: "main", channels: 1)]),
                             sampleRate: 48000, graphMaxFrames: graphMaxFrames)
            let input = TestSignal.noise(frames: 3000)
            let output = host.render([input], blockSize: blockSize)[0]
            XCTAssertLessThanOrEqual(Int(probe.record.largestCall), graphMaxFrames, "graph max \(graphMaxFrames), cycles of \(blockSize)")
            XCTAssertEqual(probe.record.framesProcessed, 3000, "every frame is processed exactly once")
            XCTAssertEqual(output, input)
        }
    }

    func testUnitChainsNeverAliasInputsAndOutputsAndMultiplyInOrder() throws {
        let probes = [ProbeUnit(scale: 2), ProbeUnit(scale: -0.5), ProbeUnit(scale: 3), ProbeUnit(scale: 0.25)]
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
        try host.install(GraphDescription(strips: [strip(probes, channels: 2)], buses: [BusDescription(name: "main", channels: 2)]), sampleRate: 44100)
        let left = TestSignal.noise(frames: 2000, seed: 1)
        let right = TestSignal.noise(frames: 2000, seed: 2)
        let output = host.render([left, right], blockSize: 253)
        for probe in probes { XCTAssertFalse(probe.record.sawAliasing, "a unit's inputs and outputs never alias") }
        assertSignalsEqual(output[0], left.map { $0 * -0.75 }, tolerance: 1e-6)
        assertSignalsEqual(output[1], right.map { $0 * -0.75 }, tolerance: 1e-6)
    }

    func testMonoStripWidenedByAStereoUnitMixesAsStereo() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(GraphDescription(strips: [strip([ProbeUnit(outputChannels: 2)])], buses: [BusDescription(name: "main", channels: 2)]),
                         sampleRate: 48000)
        let input = TestSignal.sine(frames: 1500, sampleRate: 48000)
        let output = host.render([input], blockSize: 7)
        XCTAssertEqual(output[0], input, "left is the unit's left at balance 0, unity")
        XCTAssertEqual(output[1], input.map { -$0 }, "right is the unit's right, not a constant-power copy of the mono input")
    }

    func testBypassedWideningUnitFeedsTheDryMonoSignalToBothSides() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(GraphDescription(strips: [strip([ProbeUnit(outputChannels: 2)], bypassed: [true])],
                                          buses: [BusDescription(name: "main", channels: 2)]), sampleRate: 48000)
        let input = TestSignal.noise(frames: 1000)
        let output = host.render([input], blockSize: 253)
        XCTAssertEqual(output[0], input)
        XCTAssertEqual(output[1], input)
    }

    func testAUnitThatBypassesItselfIsSwitchedThroughItsParameterAndKeepsRunning() throws {
        // As a plugin with an lv2:enabled port: the engine writes 0/1 to that parameter instead of
        // crossfading to the dry signal. The probe's own "bypass" (scale 0) is silence, unlike the dry input.
        let probe = ProbeUnit(scale: 1, bypassesItself: true)
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(GraphDescription(strips: [strip([probe], bypassed: [true])], buses: [BusDescription(name: "main", channels: 1)]),
                         sampleRate: 48000)
        let input = TestSignal.dc(frames: 253 * 4)
        let output = try host.render([input], blockSize: 253) { cycle, _ in
            if cycle == 2 { try host.engine.set(.unitBypass(strip: 0, unit: 0), to: 0) }
        }[0]
        XCTAssertTrue(output[..<(253 * 2)].allSatisfy { $0 == 0 }, "bypassed from the start by its own parameter (not the dry input)")
        XCTAssertTrue(output[(253 * 2)...].allSatisfy { $0 == 1 }, "enabled again from the next cycle, with no engine crossfade")
        XCTAssertEqual(probe.record.framesProcessed, 253 * 4, "the unit ran all along")
    }

    func testUnitParameterReachesTheUnitAtTheNextCycleStart() throws {
        let probe = ProbeUnit()
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(GraphDescription(strips: [strip([probe])], buses: [BusDescription(name: "main", channels: 1)]), sampleRate: 96000)
        let output = try host.render([TestSignal.dc(frames: 253 * 3)], blockSize: 253) { cycle, _ in
            if cycle == 1 { try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 0), to: -2.5) }
        }[0]
        XCTAssertEqual(probe.record.lastParameterIndex, 0)
        XCTAssertTrue(output[..<253].allSatisfy { $0 == 1 })
        XCTAssertTrue(output[253...].allSatisfy { $0 == -2.5 }, "from the first frame of the next cycle")
    }

    func testLatencyIsSummedAlongAStripAndTheLargestStripWins() throws {
        let graph = try EngineGraph(GraphDescription(
            strips: [
                StripDescription(name: "a", channels: 1, units: [ProbeUnit(latency: 3), ProbeUnit(latency: 5)], sends: [SendDescription(bus: 0)]),
                StripDescription(name: "b", channels: 2, units: [ProbeUnit(latency: 7)], sends: [SendDescription(bus: 0)]),
            ],
            buses: [BusDescription(name: "main", channels: 2)]), sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(graph.layout.latencyFrames, 8)
        XCTAssertEqual(graph.layout.inputPorts.map(\.name), ["a_in", "b_in_L", "b_in_R"])
        XCTAssertEqual(graph.layout.outputPorts.map(\.name), ["main_L", "main_R"])
        XCTAssertEqual(graph.layout.outputPorts.map(\.channel), [0, 1])
    }

    func testDisabledStripSkipsItsUnits() throws {
        let probe = ProbeUnit()
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(GraphDescription(strips: [strip([probe], isEnabled: false)], buses: [BusDescription(name: "main", channels: 1)]), sampleRate: 48000)
        let output = host.render([TestSignal.noise(frames: 2000)], blockSize: 253)[0]
        XCTAssertEqual(probe.record.calls, 0, "a disabled strip never runs its units")
        XCTAssertTrue(output.allSatisfy { $0 == 0 })
    }

    func testFullyBypassedUnitIsNotRun() throws {
        let probe = ProbeUnit(scale: 9)
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(GraphDescription(strips: [strip([probe], bypassed: [true])], buses: [BusDescription(name: "main", channels: 1)]), sampleRate: 48000)
        let input = TestSignal.noise(frames: 1000)
        XCTAssertEqual(host.render([input], blockSize: 253)[0], input)
        XCTAssertEqual(probe.record.calls, 0)
    }
}
