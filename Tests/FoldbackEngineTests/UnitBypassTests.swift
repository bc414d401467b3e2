// Unit bypass: a 5 ms crossfade between the unit's output and the dry signal, with no step, and bypassed == dry exactly.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class UnitBypassTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    func testBypassingCrossfadesLinearlyFromWetToDryOverFiveMilliseconds() throws {
        for sampleRate in sampleRates {
            for blockSize in [1, 7, 253, 1024] {
                let fade = TestSignal.frames(seconds: 0.005, sampleRate: sampleRate)
                let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
                // An inverting unit: wet = −1, dry = +1 for a DC input, the hardest case (the fade passes through 0).
                try host.install(TestGraph.single(units: [GainUnit(gainDB: 0, isInverted: true)]), sampleRate: sampleRate)
                let changeAt = blockSize * (blockSize == 1 ? 100 : 2)
                let output = try host.render([TestSignal.dc(frames: changeAt + fade + 2048)], blockSize: blockSize) { _, start in
                    if start == changeAt { try host.engine.set(.unitBypass(strip: 0, unit: 0), to: 1) }
                }[0]
                let label = "\(sampleRate) Hz, block \(blockSize)"
                XCTAssertTrue(output[..<changeAt].allSatisfy { $0 == -1 }, "\(label): wet before")
                let expected = (0..<fade).map { -1 + 2 * Float($0 + 1) / Float(fade) }
                assertSignalsEqual(Array(output[changeAt..<(changeAt + fade)]), expected, tolerance: 5e-5, "\(label): linear crossfade")
                XCTAssertTrue(output[(changeAt + fade - 1)...].allSatisfy { $0 == 1 }, "\(label): exactly dry \(fade) frames after the bypass")
                XCTAssertNotEqual(output[changeAt + fade - 2], 1, "\(label): not dry before the fade ends")
                XCTAssertLessThanOrEqual(TestSignal.largestStep(output), TestSignal.clickFreeStep(delta: 2, frames: fade), "\(label): no step")
            }
        }
    }

    func testUnbypassingCrossfadesBackToWet() throws {
        for sampleRate in sampleRates {
            let fade = TestSignal.frames(seconds: 0.005, sampleRate: sampleRate)
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
            try host.install(TestGraph.single(units: [GainUnit(gainDB: -6.0206)], bypassed: [true]), sampleRate: sampleRate)
            let output = try host.render([TestSignal.dc(frames: 253 * 2 + fade + 300)], blockSize: 253) { _, start in
                if start == 253 { try host.engine.set(.unitBypass(strip: 0, unit: 0), to: 0) }
            }[0]
            XCTAssertTrue(output[..<253].allSatisfy { $0 == 1 }, "dry while bypassed")
            XCTAssertTrue(output[(253 + fade - 1)...].allSatisfy { abs($0 - 0.5) < 1e-6 }, "wet (−6 dB) \(fade) frames after un-bypass")
            XCTAssertLessThanOrEqual(TestSignal.largestStep(output), TestSignal.clickFreeStep(delta: 0.5, frames: fade), "\(sampleRate) Hz: no step")
        }
    }

    func testFullyBypassedUnitIsExactlyDry() throws {
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
            try host.install(
                TestGraph.single(stripChannels: 2, busChannels: 2,
                                 units: [GainUnit(gainDB: -20, isInverted: true), GainUnit(gainDB: 6)], bypassed: [true, true]),
                sampleRate: sampleRate)
            let left = TestSignal.sine(frames: 3000, sampleRate: sampleRate)
            let right = TestSignal.noise(frames: 3000, seed: 4)
            let output = host.render([left, right], blockSize: 253)
            XCTAssertEqual(output[0], left, "\(sampleRate) Hz: bypassed chain is bit-identical to dry (left)")
            XCTAssertEqual(output[1], right, "\(sampleRate) Hz: bypassed chain is bit-identical to dry (right)")
        }
    }

    func testBypassAfterTheFadeEqualsDryBitForBit() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(TestGraph.single(units: [GainUnit(gainDB: 9)]), sampleRate: 48000)
        try host.engine.set(.unitBypass(strip: 0, unit: 0), to: 1)
        _ = host.render([TestSignal.noise(frames: 1024)], blockSize: 1024)   // the 240-frame fade runs here
        let input = TestSignal.noise(frames: 3000, seed: 77)
        XCTAssertEqual(host.render([input], blockSize: 7)[0], input)
    }

    func testBypassingOneUnitKeepsTheOthers() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 1)
        try host.install(TestGraph.single(units: [GainUnit(gainDB: -6.0206), GainUnit(gainDB: -20), GainUnit(gainDB: 0, isInverted: true)],
                                          bypassed: [false, true, false]),
                         sampleRate: 44100)
        let input = TestSignal.sine(frames: 2000, sampleRate: 44100)
        assertSignalsEqual(host.render([input], blockSize: 253)[0], input.map { -0.5 * $0 }, tolerance: 1e-6, "only the middle unit is skipped")
    }
}
