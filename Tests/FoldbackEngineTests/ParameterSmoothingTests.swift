// Parameter smoothing in the engine: fader, pan and bus gain changes start at the next cycle and ramp linearly over 20 ms.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class ParameterSmoothingTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    /// Renders DC 1 through `description`, calling `change` before the cycle starting at `changeAt`; returns the outputs.
    private func renderChange(
        _ description: GraphDescription, outputs: Int = 1, sampleRate: Double, blockSize: Int, changeAt: Int,
        change: (Engine) throws -> Void
    ) throws -> [[Float]] {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: outputs)
        try host.install(description, sampleRate: sampleRate)
        let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
        return try host.render([TestSignal.dc(frames: changeAt + ramp + 2 * blockSize + 100)], blockSize: blockSize) { _, start in
            if start == changeAt { try change(host.engine) }
        }
    }

    func testFaderChangeReachesTargetExactlyAfterTheSmoothingTimeWithBoundedSteps() throws {
        for sampleRate in sampleRates {
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            for blockSize in [1, 7, 253, 1024] {
                for (fromDB, toDB) in [(Float(0), Float(-12)), (-20, 6), (0, -.infinity)] {
                    let changeAt = blockSize * (blockSize == 1 ? 300 : 2)
                    let output = try renderChange(TestGraph.single(gainDB: fromDB), sampleRate: sampleRate, blockSize: blockSize,
                                                  changeAt: changeAt) { try $0.set(.stripGain(strip: 0), to: toDB) }[0]
                    let from = TestSignal.linear(fromDB)
                    let target = TestSignal.linear(toDB)
                    let label = "\(fromDB)→\(toDB) dB, \(sampleRate) Hz, block \(blockSize)"
                    XCTAssertTrue(output[..<changeAt].allSatisfy { $0 == from }, "\(label): nothing moves before the cycle the change is made for")
                    XCTAssertNotEqual(output[changeAt], from, "\(label): the ramp starts on the first frame of that cycle")
                    XCTAssertNotEqual(output[changeAt + ramp - 2], target, "\(label): not on target before \(ramp) frames")
                    XCTAssertTrue(output[(changeAt + ramp - 1)...].allSatisfy { $0 == target },
                                  "\(label): exactly on target from the \(ramp)th frame (\(output[changeAt + ramp - 1]) vs \(target))")
                    let bound = abs(target - from) / Float(ramp) + 1e-6
                    XCTAssertLessThanOrEqual(TestSignal.largestStep(output), bound, "\(label): per-sample gain change bounded by Δ/rampFrames")
                    let span = output[(changeAt - 1)...]
                    let isMonotonic = target < from ? zip(span, span.dropFirst()).allSatisfy { $1 <= $0 } : zip(span, span.dropFirst()).allSatisfy { $1 >= $0 }
                    XCTAssertTrue(isMonotonic, "\(label): the ramp is monotonic")
                }
            }
        }
    }

    func testFaderRampIsAStraightLine() throws {
        for sampleRate in sampleRates {
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let output = try renderChange(TestGraph.single(), sampleRate: sampleRate, blockSize: 253, changeAt: 253) {
                try $0.set(.stripGain(strip: 0), to: -6.0206)
            }[0]
            let target = TestSignal.linear(-6.0206)
            let expected = (0..<ramp).map { 1 + (target - 1) * Float($0 + 1) / Float(ramp) }
            assertSignalsEqual(Array(output[253..<(253 + ramp)]), expected, tolerance: 1e-5, "\(sampleRate) Hz")
        }
    }

    func testPanChangeRampsBothSidesOverTheSmoothingTime() throws {
        for sampleRate in sampleRates {
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let output = try renderChange(TestGraph.single(busChannels: 2, pan: -1), outputs: 2, sampleRate: sampleRate,
                                          blockSize: 7, changeAt: 70) { try $0.set(.stripPan(strip: 0), to: 0.5) }
            let gains = PanLaw.constantPower(pan: 0.5)
            XCTAssertEqual(output[0][69], 1)
            XCTAssertEqual(output[1][69], 0)
            XCTAssertTrue(output[0][(70 + ramp - 1)...].allSatisfy { $0 == gains.left }, "left on the new law after \(ramp) frames")
            XCTAssertTrue(output[1][(70 + ramp - 1)...].allSatisfy { $0 == gains.right }, "right on the new law after \(ramp) frames")
            XCTAssertNotEqual(output[1][70 + ramp - 2], gains.right)
            XCTAssertLessThanOrEqual(TestSignal.largestStep(output[0]), TestSignal.clickFreeStep(delta: 1 - gains.left, frames: ramp))
            XCTAssertLessThanOrEqual(TestSignal.largestStep(output[1]), TestSignal.clickFreeStep(delta: gains.right, frames: ramp))
        }
    }

    func testBusGainChangeRampsOverTheSmoothingTime() throws {
        for sampleRate in sampleRates {
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let output = try renderChange(TestGraph.single(busChannels: 2), outputs: 2, sampleRate: sampleRate, blockSize: 253, changeAt: 506) {
                try $0.set(.busGain(bus: 0), to: -20)
            }
            for channel in 0..<2 {
                let before = output[channel][505]
                let target = before * 0.1
                XCTAssertEqual(before, 0.70710678, accuracy: 1e-6)
                XCTAssertEqual(output[channel][506 + ramp - 1], target, accuracy: 1e-7, "\(sampleRate) Hz channel \(channel)")
                XCTAssertEqual(output[channel].last!, target, accuracy: 1e-7)
                XCTAssertGreaterThan(output[channel][506 + ramp - 2], target + 1e-5, "not on target before \(ramp) frames")
                XCTAssertLessThanOrEqual(TestSignal.largestStep(output[channel]), TestSignal.clickFreeStep(delta: before - target, frames: ramp))
            }
        }
    }

    func testUnitParameterChangeIsSmoothedByTheUnit() throws {
        for sampleRate in sampleRates {
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let output = try renderChange(TestGraph.single(units: [GainUnit(gainDB: 0)]), sampleRate: sampleRate, blockSize: 253, changeAt: 253) {
                try $0.set(.unitParameter(strip: 0, unit: 0, parameter: 0), to: -12)
            }[0]
            let target = TestSignal.linear(-12)
            XCTAssertEqual(output[252], 1)
            XCTAssertTrue(output[(253 + ramp - 1)...].allSatisfy { $0 == target })
            XCTAssertLessThanOrEqual(TestSignal.largestStep(output), TestSignal.clickFreeStep(delta: 1 - target, frames: ramp))
        }
    }

    func testUnitPolarityFlipRampsThroughZero() throws {
        let sampleRate = 48000.0
        let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
        let output = try renderChange(TestGraph.single(units: [GainUnit(gainDB: 0)]), sampleRate: sampleRate, blockSize: 7, changeAt: 700) {
            try $0.set(.unitParameter(strip: 0, unit: 0, parameter: 1), to: 1)
        }[0]
        XCTAssertEqual(output[699], 1)
        XCTAssertEqual(output[700 + ramp / 2 - 1], 0, accuracy: 1e-5, "zero halfway through the flip")
        XCTAssertTrue(output[(700 + ramp - 1)...].allSatisfy { $0 == -1 })
        XCTAssertLessThanOrEqual(TestSignal.largestStep(output), TestSignal.clickFreeStep(delta: 2, frames: ramp))
    }

    func testSeveralChangesInOneCycleEndAtTheLastValue() throws {
        let output = try renderChange(TestGraph.single(), sampleRate: 48000, blockSize: 253, changeAt: 253) { engine in
            try engine.set(.stripGain(strip: 0), to: -40)
            try engine.set(.stripGain(strip: 0), to: 3)
            try engine.set(.stripGain(strip: 0), to: -6.0206)
        }[0]
        XCTAssertTrue(output[(253 + 959)...].allSatisfy { abs($0 - 0.5) < 1e-6 })
        XCTAssertLessThanOrEqual(TestSignal.largestStep(output), TestSignal.clickFreeStep(delta: 0.5, frames: 960), "only the last value is ramped to, from where the fader was")
    }
}
