// Mixer routing: pan laws per strip/bus width, dB gains multiplying along the path, strips summing in a bus.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class MixerRoutingTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    func testMonoStripPansIntoStereoBusWithConstantPower() throws {
        let cases: [(pan: Float, left: Float, right: Float)] = [
            (-1, 1, 0), (0, 0.70710678, 0.70710678), (1, 0, 1), (-0.5, 0.9238795, 0.3826834), (0.5, 0.3826834, 0.9238795),
        ]
        for sampleRate in sampleRates {
            for (pan, left, right) in cases {
                let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
                try host.install(TestGraph.single(stripChannels: 1, busChannels: 2, pan: pan), sampleRate: sampleRate)
                let input = TestSignal.noise(frames: 3000, seed: 7)
                let output = host.render([input], blockSize: 253)
                assertFullyWritten(output)
                assertSignalsEqual(output[0], input.map { $0 * left }, tolerance: 1e-6, "left at pan \(pan), \(sampleRate) Hz")
                assertSignalsEqual(output[1], input.map { $0 * right }, tolerance: 1e-6, "right at pan \(pan), \(sampleRate) Hz")
            }
        }
    }

    func testHardPannedMonoStripLeavesTheFarSideExactlySilent() throws {
        for pan: Float in [-1, 1] {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
            try host.install(TestGraph.single(stripChannels: 1, busChannels: 2, pan: pan), sampleRate: 48000)
            let input = TestSignal.sine(frames: 2048, sampleRate: 48000)
            let output = host.render([input], blockSize: 1024)
            let (near, far) = pan < 0 ? (output[0], output[1]) : (output[1], output[0])
            XCTAssertEqual(near, input, "near side is the input, bit for bit")
            XCTAssertTrue(far.allSatisfy { $0 == 0 }, "far side is exactly 0 at pan \(pan)")
        }
    }

    func testStereoStripUsesBalanceIntoStereoBus() throws {
        let cases: [(pan: Float, left: Float, right: Float)] = [(0, 1, 1), (-0.5, 1, 0.5), (0.25, 0.75, 1), (-1, 1, 0), (1, 0, 1)]
        for sampleRate in sampleRates {
            for (pan, left, right) in cases {
                let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
                try host.install(TestGraph.single(stripChannels: 2, busChannels: 2, pan: pan), sampleRate: sampleRate)
                let inputLeft = TestSignal.sine(frames: 2000, frequency: 440, sampleRate: sampleRate)
                let inputRight = TestSignal.noise(frames: 2000, seed: 3)
                let output = host.render([inputLeft, inputRight], blockSize: 7)
                assertFullyWritten(output)
                assertSignalsEqual(output[0], inputLeft.map { $0 * left }, tolerance: 1e-6, "left at balance \(pan)")
                assertSignalsEqual(output[1], inputRight.map { $0 * right }, tolerance: 1e-6, "right at balance \(pan)")
            }
        }
    }

    func testStereoStripIntoMonoBusIsHalfTheSumWhenCentred() throws {
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
            try host.install(TestGraph.single(stripChannels: 2, busChannels: 1), sampleRate: sampleRate)
            let left = TestSignal.sine(frames: 1500, sampleRate: sampleRate)
            let right = TestSignal.noise(frames: 1500, seed: 11)
            let output = host.render([left, right], blockSize: 253)
            assertSignalsEqual(output[0], zip(left, right).map { 0.5 * ($0 + $1) }, tolerance: 1e-6, "\(sampleRate) Hz")
        }
    }

    /// The stated law: stereo → mono is 0.5·(bL·L + bR·R) with the balance gains bL, bR of the strip's pan, so an
    /// L-only signal reaches the bus at 20·log10(0.5·bL) dB (−6.02 dB centred and hard left, silent hard right).
    func testStereoStripIntoMonoBusAppliesBalanceBeforeTheSum() throws {
        let cases: [(pan: Float, left: Float, right: Float)] = [(-1, 1, 0), (-0.5, 1, 0.5), (0, 1, 1), (0.5, 0.5, 1), (1, 0, 1)]
        let sampleRate = 48000.0
        let tone = TestSignal.sine(frames: 4800, frequency: 1000, sampleRate: sampleRate, amplitude: 0.5)
        let silence = [Float](repeating: 0, count: tone.count)
        let toneDB = TestSignal.rmsDB(tone)
        for blockSize in [1, 7, 253] {
            for (pan, left, right) in cases {
                for (side, balance) in [("L", left), ("R", right)] {
                    let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
                    try host.install(TestGraph.single(stripChannels: 2, busChannels: 1, pan: pan), sampleRate: sampleRate)
                    let output = host.render(side == "L" ? [tone, silence] : [silence, tone], blockSize: blockSize)[0]
                    let label = "\(side)-only at pan \(pan), block \(blockSize)"
                    assertFullyWritten([output], label)
                    if balance == 0 {
                        XCTAssertTrue(output.allSatisfy { $0 == 0 }, "\(label): the far side is exactly silent")
                    } else {
                        let expectedDB = 20 * log10(0.5 * Double(balance))
                        XCTAssertEqual(TestSignal.rmsDB(output) - toneDB, expectedDB, accuracy: 0.01, label)
                    }
                }
            }
        }
    }

    func testBalanceChangeIntoMonoBusRampsOverTheSmoothingTime() throws {
        let sampleRate = 48000.0
        let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
        for blockSize in [1, 7, 253] {
            let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 1)
            try host.install(TestGraph.single(stripChannels: 2, busChannels: 1), sampleRate: sampleRate)
            let changeAt = blockSize * (blockSize == 1 ? 300 : 2)
            let frames = changeAt + ramp + 2 * blockSize
            let output = try host.render([TestSignal.dc(frames: frames), TestSignal.dc(frames: frames, value: 0)], blockSize: blockSize) { _, start in
                if start == changeAt { try host.engine.set(.stripPan(strip: 0), to: 1) }
            }[0]
            let label = "block \(blockSize)"
            XCTAssertEqual(output[changeAt - 1], 0.5, "\(label): L at −6 dB while centred")
            XCTAssertTrue(output[(changeAt + ramp - 1)...].allSatisfy { $0 == 0 }, "\(label): L gone once hard right")
            XCTAssertGreaterThan(output[changeAt + ramp - 2], 0, "\(label): not there before \(ramp) frames")
            XCTAssertLessThanOrEqual(TestSignal.largestStep(output), TestSignal.clickFreeStep(delta: 0.5, frames: ramp), label)
        }
    }

    func testMonoStripIntoMonoBusIgnoresPan() throws {
        for pan: Float in [-1, 0, 1] {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try host.install(TestGraph.single(pan: pan), sampleRate: 44100)
            let input = TestSignal.noise(frames: 1000)
            XCTAssertEqual(host.render([input], blockSize: 253)[0], input, "mono → mono is unity at pan \(pan)")
        }
    }

    func testFaderUnitSendAndBusGainsMultiplyAsDecibelSums() throws {
        // fader −6 + gain unit −3 + send −4 + bus −5 = −18 dB.
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try host.install(
                TestGraph.single(gainDB: -6, units: [GainUnit(gainDB: -3)], send: SendDescription(bus: 0, gainDB: -4), busGainDB: -5),
                sampleRate: sampleRate)
            let input = TestSignal.sine(frames: 2048, sampleRate: sampleRate)
            let output = host.render([input], blockSize: 253)[0]
            let expected = TestSignal.linear(-18)
            XCTAssertEqual(expected, 0.12589254, accuracy: 1e-7)
            assertSignalsEqual(output, input.map { $0 * expected }, tolerance: 1e-6, "\(sampleRate) Hz")
        }
    }

    func testPositiveGainsAlsoSumInDecibels() throws {
        // fader +6 + unit +12 + send +3 + bus −21 = 0 dB.
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(
            TestGraph.single(busChannels: 2, gainDB: 6, pan: -1, units: [GainUnit(gainDB: 12)],
                             send: SendDescription(bus: 0, gainDB: 3), busGainDB: -21),
            sampleRate: 48000)
        let input = TestSignal.noise(frames: 1024, amplitude: 0.1)
        let output = host.render([input], blockSize: 1024)
        assertSignalsEqual(output[0], input, tolerance: 1e-6)
        XCTAssertTrue(output[1].allSatisfy { $0 == 0 })
    }

    func testTwoStripsSumIntoOneBus() throws {
        for sampleRate in sampleRates {
            let description = GraphDescription(
                strips: [
                    StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)], gainDB: -6, pan: -0.5),
                    StripDescription(name: "keys", channels: 2, sends: [SendDescription(bus: 0, gainDB: -3)], pan: 0.25),
                ],
                buses: [BusDescription(name: "wedge", channels: 2)])
            let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 2)
            try host.install(description, sampleRate: sampleRate)
            let vox = TestSignal.sine(frames: 3000, frequency: 220, sampleRate: sampleRate)
            let keysLeft = TestSignal.noise(frames: 3000, seed: 5)
            let keysRight = TestSignal.noise(frames: 3000, seed: 9)
            let output = host.render([vox, keysLeft, keysRight], blockSize: 253)
            let voxGain = TestSignal.linear(-6)
            let keysGain = TestSignal.linear(-3)
            let voxPan = PanLaw.constantPower(pan: -0.5)
            let expectedLeft = (0..<3000).map { vox[$0] * voxGain * voxPan.left + keysLeft[$0] * keysGain * 0.75 }
            let expectedRight = (0..<3000).map { vox[$0] * voxGain * voxPan.right + keysRight[$0] * keysGain }
            assertSignalsEqual(output[0], expectedLeft, tolerance: 1e-6, "left, \(sampleRate) Hz")
            assertSignalsEqual(output[1], expectedRight, tolerance: 1e-6, "right, \(sampleRate) Hz")
        }
    }

    func testStripFeedsSeveralBusesAndBusesMapToConsecutiveOutputs() throws {
        let description = GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [
                SendDescription(bus: 1, gainDB: -6.0206), SendDescription(bus: 0), SendDescription(bus: 2, gainDB: -20),
            ], pan: 1)],
            buses: [BusDescription(name: "a", channels: 1), BusDescription(name: "b", channels: 2), BusDescription(name: "c", channels: 1)])
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 4)
        try host.install(description, sampleRate: 48000)
        let input = TestSignal.noise(frames: 1000)
        let output = host.render([input], blockSize: 7)
        assertSignalsEqual(output[0], input, tolerance: 1e-6, "bus a → output 0")
        XCTAssertTrue(output[1].allSatisfy { $0 == 0 }, "bus b left is silent at pan +1")
        assertSignalsEqual(output[2], input.map { $0 * 0.5 }, tolerance: 1e-6, "bus b right → output 2")
        assertSignalsEqual(output[3], input.map { $0 * 0.1 }, tolerance: 1e-6, "bus c → output 3")
    }

    func testOutputsBeyondTheGraphAreSilentAndMissingInputsReadAsSilence() throws {
        let description = GraphDescription(
            strips: [
                StripDescription(name: "a", channels: 1, sends: [SendDescription(bus: 0)]),
                StripDescription(name: "b", channels: 1, sends: [SendDescription(bus: 0)]),
            ],
            buses: [BusDescription(name: "main", channels: 1)])
        // Only one input wired (strip b has no input), three outputs wired (two beyond the graph's one).
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 3)
        try host.install(description, sampleRate: 48000)
        let input = TestSignal.noise(frames: 600)
        let output = host.render([input], blockSize: 253)
        assertFullyWritten(output)
        XCTAssertEqual(output[0], input)
        XCTAssertTrue(output[1].allSatisfy { $0 == 0 } && output[2].allSatisfy { $0 == 0 }, "undriven outputs are cleared")
    }

    func testNoGraphOutputsSilence() {
        let host = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2)
        let output = host.render([TestSignal.noise(frames: 500)], blockSize: 253)
        assertFullyWritten(output)
        XCTAssertTrue(output.allSatisfy { $0.allSatisfy { $0 == 0 } })
    }
}
