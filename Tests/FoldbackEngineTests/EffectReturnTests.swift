// Effect buses and returns: no output ports, same-cycle ordering, shared return levels, send loops refused.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class EffectReturnTests: XCTestCase {
    /// `vox` sends to three output buses and (at 0 dB) to the effect bus `verb` (a gain unit of `fxGainDB`);
    /// the return `verb_ret` sends to the three output buses at −6, −12 and −18 dB. Buses are declared
    /// with the effect bus last, so the order must come from the routing, not the file.
    private func sharedReturn(fxGainDB: Float = 0, returnSends: [Float] = [-6, -12, -18]) -> GraphDescription {
        var ret = StripDescription(name: "verb_ret", channels: 1, sends: returnSends.enumerated().map { SendDescription(bus: $0.offset, gainDB: $0.element) })
        ret.returnBus = 3
        return GraphDescription(
            strips: [ret, StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 3)])],
            buses: [
                BusDescription(name: "foh", channels: 1), BusDescription(name: "iem1", channels: 1), BusDescription(name: "iem2", channels: 1),
                BusDescription(name: "verb", channels: 1, units: [GainUnit(gainDB: fxGainDB)], hasOutput: false),
            ])
    }

    func testOneSharedReturnIsHeardInThreeBusesAtItsSendLevels() throws {
        for sampleRate in [44100.0, 48000, 96000] {
            for blockSize in [1, 7, 253, 1024] where !(blockSize == 1 && sampleRate != 48000) {
                let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 3)
                let graph = try host.install(sharedReturn(fxGainDB: -3), sampleRate: sampleRate)
                XCTAssertEqual(graph.layout.outputPorts.map(\.name), ["foh", "iem1", "iem2"], "the effect bus has no ports")
                XCTAssertEqual(graph.layout.inputPorts.map(\.name), ["vox_in"], "the return has no ports")
                let input = TestSignal.sine(frames: 2048, sampleRate: sampleRate, amplitude: 0.5)
                let output = host.render([input], blockSize: blockSize)
                assertFullyWritten(output)
                for (bus, sendDB) in [Float(-6), -12, -18].enumerated() {
                    let expected = input.map { $0 * Decibels.linearGain(fromDecibels: -3 + sendDB) }
                    assertSignalsEqual(output[bus], expected, tolerance: 1e-6, "bus \(bus) at \(sampleRate) Hz, block \(blockSize): fx −3 dB, send \(sendDB) dB, same sample")
                }
            }
        }
    }

    func testAnImpulseThroughTheEffectBusArrivesWithTheDryPath() throws {
        var description = sharedReturn(returnSends: [0])
        description.strips[1].sends.append(SendDescription(bus: 0))
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 3)
        let graph = try host.install(description, sampleRate: 48000, graphMaxFrames: 256)
        XCTAssertEqual(graph.layout.latencyFrames, 0)
        var impulse = [Float](repeating: 0, count: 1000)
        impulse[300] = 0.25
        let output = host.render([impulse], blockSize: 253)
        XCTAssertEqual(output[0].indices.filter { output[0][$0] != 0 }, [300], "dry and return in the same sample: no added latency")
        XCTAssertEqual(output[0][300], 0.5, accuracy: 1e-7, "dry 0.25 + return 0.25")
    }

    func testAReturnThatFeedsItsOwnBusIsASendLoop() {
        var loop = sharedReturn()
        loop.strips[0].sends.append(SendDescription(bus: 3))
        XCTAssertThrowsError(try EngineGraph(loop, sampleRate: 48000, maxFrames: 64)) { error in
            XCTAssertEqual(error as? EngineError, .sendLoop(["verb_ret", "verb", "verb_ret"]))
            XCTAssertEqual("\(error)", "send loop: verb_ret → verb → verb_ret")
        }
    }

    func testALoopThroughTwoReturnsIsFound() {
        var a = StripDescription(name: "a_ret", channels: 1, sends: [SendDescription(bus: 1)])
        a.returnBus = 0
        var b = StripDescription(name: "b_ret", channels: 1, sends: [SendDescription(bus: 0)])
        b.returnBus = 1
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)]), a, b],
            buses: [BusDescription(name: "fx_a", channels: 1, hasOutput: false), BusDescription(name: "fx_b", channels: 1, hasOutput: false)])
        XCTAssertThrowsError(try EngineGraph(description, sampleRate: 48000, maxFrames: 64)) { error in
            XCTAssertEqual(error as? EngineError, .sendLoop(["a_ret", "fx_b", "b_ret", "fx_a", "a_ret"]))
        }
    }

    func testAReturnMayFeedAnotherEffectBus() throws {
        // vox → fx_a → a_ret → fx_b → b_ret → main, declared in reverse so only routing orders them.
        var b = StripDescription(name: "b_ret", channels: 1, sends: [SendDescription(bus: 0)])
        b.returnBus = 1
        var a = StripDescription(name: "a_ret", channels: 1, sends: [SendDescription(bus: 1, gainDB: -6)])
        a.returnBus = 2
        let description = GraphDescription(
            strips: [b, a, StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 2)])],
            buses: [BusDescription(name: "main", channels: 1), BusDescription(name: "fx_b", channels: 1, hasOutput: false),
                    BusDescription(name: "fx_a", channels: 1, hasOutput: false)])
        let host = OfflineEngine(maxFrames: 64, inputs: 1, outputs: 1)
        try host.install(description, sampleRate: 48000, graphMaxFrames: 64)
        let output = host.render([TestSignal.dc(frames: 200, value: 0.5)], blockSize: 7)
        let expected = 0.5 * Decibels.linearGain(fromDecibels: -6)
        XCTAssertEqual(output[0][0], expected, accuracy: 1e-6, "the first sample already went through both effect buses")
        XCTAssertEqual(output[0][199], expected, accuracy: 1e-6)
    }

    func testASoloKeepsTheSoloedStripsReturnAndSilencesTheOthers() throws {
        var description = sharedReturn(returnSends: [0])
        description.strips.append(StripDescription(name: "gtr", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 3)]))
        description.strips[1].sends.append(SendDescription(bus: 0))
        let host = OfflineEngine(maxFrames: 256, inputs: 2, outputs: 3)
        try host.install(description, sampleRate: 48000, graphMaxFrames: 256)
        let frames = 9600
        let output = try host.render([TestSignal.dc(frames: frames, value: 0.1), TestSignal.dc(frames: frames, value: 0.3)], blockSize: 253) { cycle, _ in
            if cycle == 2 { try host.engine.set(.stripSolo(strip: 1), to: 1) }
        }
        XCTAssertEqual(output[0][400], 2 * (0.1 + 0.3), accuracy: 1e-6, "before the solo: dry and returned, both strips")
        XCTAssertEqual(output[0][frames - 1], 2 * 0.1, accuracy: 1e-6, "vox soloed: its dry signal and its reverb return (solo-safe), no guitar")
    }

    func testAMonoReturnOfAStereoBusHearsBothSides() throws {
        var ret = StripDescription(name: "ret", channels: 1, units: [GainUnit(gainDB: 0), GainUnit(gainDB: 0)], sends: [SendDescription(bus: 0)])
        ret.returnBus = 1
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 1)], pan: -1), ret],
            buses: [BusDescription(name: "mono", channels: 1), BusDescription(name: "fx", channels: 2, hasOutput: false)])
        let host = OfflineEngine(maxFrames: 64, inputs: 1, outputs: 1)
        try host.install(description, sampleRate: 48000, graphMaxFrames: 64)
        let output = host.render([TestSignal.dc(frames: 256, value: 0.5)], blockSize: 7)
        // Panned hard left into the stereo effect bus: L = 0.5, R = 0; the mono return hears ½(L+R).
        XCTAssertEqual(output[0][255], 0.25, accuracy: 1e-6)
    }
}
