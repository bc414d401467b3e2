// The `delay` unit: impulses land exactly at round(delay · fs) at every rate and block size, moves crossfade without a step, every channel is delayed alike.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class DelayUnitTests: XCTestCase {
    private func impulse(_ length: Int, at index: Int = 0) -> [Float] {
        var signal = [Float](repeating: 0, count: length)
        signal[index] = 1
        return signal
    }

    func testAnImpulseComesOutExactlyAtTheDelayAtEveryRateAndBlockSize() throws {
        for sampleRate in [44100.0, 48000.0, 96000.0] {
            for milliseconds: Float in [0, 0.02, 1, 7.3, 123.45, 500] {
                let expected = Int((Double(milliseconds) * sampleRate / 1000).rounded())
                for blockSize in [1, 7, 253, 1024] {
                    let driver = try UnitSlotDriver(DelayUnit(milliseconds: milliseconds), channels: 1, sampleRate: sampleRate)
                    XCTAssertEqual(driver.slot.latencyFrames, 0, "a delay is not latency")
                    let output = driver.render([impulse(expected + 300, at: 5)], blockSize: blockSize)[0]
                    let nonZero = output.indices.filter { output[$0] != 0 }
                    XCTAssertEqual(nonZero, [expected + 5], "\(milliseconds) ms at \(sampleRate) Hz, block \(blockSize)")
                    XCTAssertEqual(output[expected + 5], 1, "unchanged in level")
                }
            }
        }
    }

    func testEveryChannelIsDelayedAlike() throws {
        let driver = try UnitSlotDriver(DelayUnit(milliseconds: 10), channels: 3, sampleRate: 48000)
        let inputs = (0..<3).map { channel in EQMeasurement.noise(frames: 2000, seed: UInt64(channel + 1)) }
        let output = driver.render(inputs, blockSize: 253)
        for channel in 0..<3 {
            XCTAssertEqual(Array(output[channel][480...]), Array(inputs[channel][0..<1520]), "channel \(channel) 480 frames late")
            XCTAssertTrue(output[channel][0..<480].allSatisfy { $0 == 0 })
        }
    }

    /// Moves during a 997 Hz sine of amplitude 1 at 48 kHz, one of them while the previous crossfade runs:
    /// the largest step between output samples stays within A·(2πf/fs + 2/fadeFrames) = 0.1305 + 0.0021,
    /// where cutting between read heads would step by up to 2.
    func testMovingTheDelayCrossfadesWithoutAStep() throws {
        let sampleRate = 48000.0
        for blockSize in [1, 7, 253, 1024] {
            let driver = try UnitSlotDriver(DelayUnit(milliseconds: 0), channels: 1, sampleRate: sampleRate)
            let sine = EQMeasurement.sine(frequency: 997, sampleRate: sampleRate, frames: 96000, amplitude: 1)
            let moves: [(frame: Int, milliseconds: Float)] = [(4800, 3.3), (5300, 250), (40000, 500), (70000, 0.51)]
            var next = 0
            let output = driver.render([sine], blockSize: blockSize) { start in
                while next < moves.count && start >= moves[next].frame {
                    driver.set(0, moves[next].milliseconds)
                    next += 1
                }
            }[0]
            let fadeFrames = Double(DelayKernel.fadeTime * sampleRate)
            let bound = Float(2 * Double.pi * 997 / sampleRate + 2 / fadeFrames) + 1e-4
            XCTAssertLessThanOrEqual(EQMeasurement.largestStep(output), bound, "block \(blockSize)")
            if blockSize == 1 { print("delay moves: largest step \(EQMeasurement.largestStep(output)) (bound \(bound), sine alone \(EQMeasurement.largestStep(sine)))") }
            let late = 24   // round(0.51 ms · 48 kHz)
            XCTAssertEqual(Array(output[90000...]), Array(sine[(90000 - late)..<(96000 - late)]), "settled: exactly 24 frames late, block \(blockSize)")
        }
    }

    func testSettingsOutsideTheRangeAreClampedAndNaNIgnored() throws {
        let driver = try UnitSlotDriver(DelayUnit(milliseconds: 0), channels: 1, sampleRate: 8000)
        driver.set(0, 900)
        driver.set(0, .nan)
        _ = driver.render([[Float](repeating: 0, count: 1000)], blockSize: 64)    // the 20 ms crossfade runs its course
        let settled = driver.render([impulse(4100)], blockSize: 64)[0]
        XCTAssertEqual(settled.indices.filter { settled[$0] != 0 }, [4000], "900 ms is clamped to 500 ms = 4000 frames at 8 kHz; NaN changes nothing")
        XCTAssertEqual(DelayUnit(milliseconds: -3).parameters[0].defaultValue, 0)
        XCTAssertThrowsError(try DelayUnit().prepare(channels: 1, sampleRate: 1000, maxFrames: 64))
    }
}
