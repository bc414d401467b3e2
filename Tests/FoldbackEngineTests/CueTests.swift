// The cue output: a cued bus is exactly what the bus outputs, sample-aligned; PFL ignores the fader, AFL follows it; nothing else moves; switching is click-free.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class CueTests: XCTestCase {
    private let cases: [(sampleRate: Double, blockSize: Int)] = [(44100, 7), (48000, 1), (96000, 253), (48000, 1024)]

    /// vox (mono, fader −20 dB, a gain unit of −3 dB) and keys (stereo) into a stereo wedge with units and a
    /// lookahead limiter and a mono iem; outputs: wedge L/R (0, 1), iem (2), cue L/R (3, 4).
    private func graph(cueGainDB: Float = 0) -> GraphDescription {
        let vox = StripDescription(name: "vox", channels: 1, units: [GainUnit(gainDB: -3)], sends: [
            SendDescription(bus: 0, gainDB: -2), SendDescription(bus: 1, gainDB: -6, isPreFader: true),
        ], gainDB: -20, pan: -0.4)
        let keys = StripDescription(name: "keys", channels: 2, sends: [SendDescription(bus: 0, gainDB: -4), SendDescription(bus: 1)])
        var graph = GraphDescription(strips: [vox, keys], buses: [
            BusDescription(name: "wedge", channels: 2, gainDB: 3, limiter: LimiterSettings(ceilingDB: -1), units: [
                EQUnit(bands: [EQBand(type: .highShelf, frequency: 3000, gainDB: 4)]),
            ]),
            BusDescription(name: "iem", channels: 1, gainDB: -1, limiter: LimiterSettings(ceilingDB: -1, mode: .zeroLatency)),
        ])
        graph.cue = CueDescription(gainDB: cueGainDB)
        return graph
    }

    private func inputs(frames: Int, sampleRate: Double) -> [[Float]] {
        [TestSignal.sine(frames: frames, frequency: 440, sampleRate: sampleRate, amplitude: 0.3),
         TestSignal.noise(frames: frames, seed: 3, amplitude: 0.1), TestSignal.noise(frames: frames, seed: 7, amplitude: 0.1)]
    }

    private func render(
        sampleRate: Double, blockSize: Int, frames: Int, cueGainDB: Float = 0, changes: [Int: [(ParameterAddress, Float)]]
    ) throws -> [[Float]] {
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 5)
        let graph = try host.install(graph(cueGainDB: cueGainDB), sampleRate: sampleRate)
        XCTAssertEqual(graph.layout.outputPorts.map(\.name), ["wedge_L", "wedge_R", "iem", "cue_L", "cue_R"])
        return try host.render(inputs(frames: frames, sampleRate: sampleRate), blockSize: blockSize) { cycle, _ in
            for (address, value) in changes[cycle] ?? [] { try host.engine.set(address, to: value) }
        }
    }

    func testACuedBusIsExactlyWhatTheBusOutputsSampleAligned() throws {
        for (sampleRate, blockSize) in cases {
            let frames = Int(sampleRate * 0.2), settled = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate) + blockSize
            let wedge = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [0: [(.cueBus(bus: 0), 1)]])
            assertSignalsEqual(Array(wedge[3][settled...]), Array(wedge[0][settled...]), tolerance: 1e-6, "cue L = wedge L at \(sampleRate) Hz block \(blockSize)")
            assertSignalsEqual(Array(wedge[4][settled...]), Array(wedge[1][settled...]), tolerance: 1e-6, "cue R = wedge R")
            let iem = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [0: [(.cueBus(bus: 1), 1)]])
            assertSignalsEqual(Array(iem[3][settled...]), Array(iem[2][settled...]), tolerance: 1e-6, "a mono bus on both sides")
            assertSignalsEqual(Array(iem[4][settled...]), Array(iem[2][settled...]), tolerance: 1e-6)
        }
    }

    func testPFLIgnoresTheFaderAndMuteAndAFLFollowsThem() throws {
        for (sampleRate, blockSize) in cases {
            let frames = Int(sampleRate * 0.2), settled = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate) + blockSize
            let voice = inputs(frames: frames, sampleRate: sampleRate)[0]
            let afterUnits = voice.map { $0 * TestSignal.linear(-3) }
            let pfl = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [0: [(.cuePFL(strip: 0), 1), (.stripMute(strip: 0), 1)]])
            assertSignalsEqual(Array(pfl[3][settled...]), Array(afterUnits[settled...]), tolerance: 1e-6, "PFL: the units' output, fader −20 dB and mute ignored")
            assertSignalsEqual(Array(pfl[4][settled...]), Array(afterUnits[settled...]), tolerance: 1e-6)
            let afl = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [0: [(.cueAFL(strip: 0), 1)]])
            assertSignalsEqual(Array(afl[3][settled...]), afterUnits[settled...].map { $0 * 0.1 }, tolerance: 1e-6, "AFL: after the −20 dB fader")
            let mutedAFL = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [0: [(.cueAFL(strip: 0), 1), (.stripMute(strip: 0), 1)]])
            XCTAssertTrue(mutedAFL[3][settled...].allSatisfy { $0 == 0 }, "AFL of a muted strip is silent")
        }
    }

    func testCueingLeavesEveryBusUntouchedAndSelectionsAddUp() throws {
        for (sampleRate, blockSize) in cases {
            let frames = Int(sampleRate * 0.2), settled = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate) + blockSize
            let plain = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [:])
            XCTAssertTrue(plain[3].allSatisfy { $0 == 0 } && plain[4].allSatisfy { $0 == 0 }, "nothing cued: silence")
            let cued = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [
                0: [(.cueBus(bus: 0), 1), (.cueBus(bus: 1), 1), (.cuePFL(strip: 1), 1)], 5: [(.cueAFL(strip: 0), 1)], 9: [(.cueClear, 0), (.cueBus(bus: 1), 1)],
            ])
            for channel in 0..<3 { XCTAssertEqual(cued[channel], plain[channel], "bus channel \(channel) bit for bit with the cue moving") }
            let summed = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [0: [(.cueBus(bus: 0), 1), (.cueBus(bus: 1), 1)]])
            let expected = zip(summed[0], summed[2]).map { $0 + $1 }
            assertSignalsEqual(Array(summed[3][settled...]), Array(expected[settled...]), tolerance: 1e-6, "wedge L + iem")
        }
    }

    func testSwitchingTheCueCrossfadesAndTheCueHasItsOwnLevelAndLimiter() throws {
        let sampleRate = 48000.0, blockSize = 64, frames = 24000
        let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
        let output = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [
            0: [(.cueBus(bus: 1), 1)], 100: [(.cueClear, 0), (.cueBus(bus: 0), 1)],
        ])
        let switchAt = 100 * blockSize
        let before = Array(output[2][(switchAt - 2000)..<switchAt]).map(abs).max() ?? 0
        XCTAssertLessThanOrEqual(TestSignal.largestStep(output[3], in: switchAt..<(switchAt + ramp)), TestSignal.largestStep(output[2]) + TestSignal.largestStep(output[0]),
                                 "no step beyond the sources' own during the crossfade")
        XCTAssertGreaterThan(before, 0)
        assertSignalsEqual(Array(output[3][(switchAt + ramp)...]), Array(output[0][(switchAt + ramp)...]), tolerance: 1e-6, "the wedge after the crossfade")

        let loud = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, cueGainDB: 20, changes: [0: [(.cueBus(bus: 1), 1)]])
        let peak = loud[3][ramp...].map(abs).max() ?? 0
        XCTAssertLessThanOrEqual(peak, TestSignal.linear(-1) * 1.0001, "the cue limiter holds −1 dBFS with the cue 20 dB up")
        XCTAssertGreaterThan(peak, TestSignal.linear(-1.5), "and the cue is loud")
        XCTAssertEqual(loud[2], try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changes: [:])[2], "the iem itself unchanged")
    }

    func testCueAddressesNeedACue() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 5)
        var plain = graph()
        plain.cue = nil
        try host.install(plain, sampleRate: 48000)
        XCTAssertThrowsError(try host.engine.set(.cueBus(bus: 0), to: 1))
        XCTAssertEqual(host.engine.graph?.layout.outputPorts.count, 3)
    }
}
