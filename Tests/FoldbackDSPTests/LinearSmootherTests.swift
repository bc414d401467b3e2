// LinearSmoother: exact arrival after rampFrames (and not before), linearity, fill/advance/next agreement, retargeting.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class LinearSmootherTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    func testDefaultTimeGivesRoundedTwentyMillisecondRamps() {
        XCTAssertEqual(LinearSmoother.defaultTime, 0.020)
        XCTAssertEqual(LinearSmoother(value: 0, sampleRate: 44100).rampFrames, 882)
        XCTAssertEqual(LinearSmoother(value: 0, sampleRate: 48000).rampFrames, 960)
        XCTAssertEqual(LinearSmoother(value: 0, sampleRate: 96000).rampFrames, 1920)
        XCTAssertEqual(LinearSmoother(value: 0, time: 0.0105, sampleRate: 1000).rampFrames, 11, "10.5 frames round up")
        XCTAssertEqual(LinearSmoother(value: 0, rampFrames: 0).rampFrames, 1, "a ramp is at least one frame")
        XCTAssertEqual(LinearSmoother(value: 0, rampFrames: -5).rampFrames, 1)
    }

    func testReachesTargetExactlyOnFrameRampFramesAndNotBefore() {
        for sampleRate in sampleRates {
            for (from, to) in [(Float(1), Float(0.25118864)), (0, 1), (1, -1), (0.5, 3.9810717)] {
                var smoother = LinearSmoother(value: from, sampleRate: sampleRate)
                let frames = Int(smoother.rampFrames)
                smoother.setTarget(to)
                XCTAssertFalse(smoother.isSettled)
                XCTAssertEqual(smoother.value, from, "setTarget alone does not move the value")
                for frame in 1..<frames {
                    let value = smoother.next()
                    XCTAssertNotEqual(value, to, "\(sampleRate) Hz \(from)→\(to): on target early, at frame \(frame) of \(frames)")
                    if value == to { break }
                }
                XCTAssertFalse(smoother.isSettled, "still ramping after \(frames - 1) frames")
                XCTAssertEqual(smoother.next(), to, "\(sampleRate) Hz: frame \(frames) lands exactly on the target")
                XCTAssertTrue(smoother.isSettled)
                XCTAssertEqual(smoother.next(), to, "stays at the target")
                XCTAssertEqual(smoother.target, to)
            }
        }
    }

    func testRampIsLinearWithBoundedSteps() {
        for sampleRate in sampleRates {
            var smoother = LinearSmoother(value: 1, sampleRate: sampleRate)
            let frames = Int(smoother.rampFrames)
            let target: Float = 0.25118864   // −12 dB
            smoother.setTarget(target)
            let ideal = (target - 1) / Float(frames)
            var previous: Float = 1
            var worstShape: Float = 0
            var worstStep: Float = 0
            for frame in 1...frames {
                let value = smoother.next()
                worstShape = max(worstShape, abs(value - (1 + ideal * Float(frame))))
                worstStep = max(worstStep, abs((value - previous) - ideal))
                XCTAssertLessThanOrEqual(value, previous, "a falling ramp never rises (frame \(frame))")
                previous = value
            }
            XCTAssertLessThan(worstShape, 1e-5, "\(sampleRate) Hz: deviation from the straight line")
            XCTAssertLessThan(worstStep, 1e-6, "\(sampleRate) Hz: no step differs from Δ/rampFrames by more than 1e-6")
        }
    }

    func testFillProducesTheSameValuesAsNext() {
        for blockSize in [1, 7, 253, 1024] {
            var byNext = LinearSmoother(value: -0.5, sampleRate: 48000)
            var byFill = byNext
            byNext.setTarget(2)
            byFill.setTarget(2)
            let total = 2048
            var expected: [Float] = []
            for _ in 0..<total { expected.append(byNext.next()) }
            var produced = [Float](repeating: .nan, count: total)
            produced.withUnsafeMutableBufferPointer { buffer in
                var offset = 0
                while offset < total {
                    let count = min(blockSize, total - offset)
                    byFill.fill(buffer.baseAddress! + offset, count: count)
                    offset += count
                }
            }
            XCTAssertEqual(produced, expected, "fill in blocks of \(blockSize) is bit-identical to next()")
            XCTAssertEqual(byFill.value, byNext.value)
            XCTAssertTrue(byFill.isSettled)
        }
    }

    func testAdvanceAgreesWithNext() {
        for blockSize in [1, 7, 253, 1024] {
            var byNext = LinearSmoother(value: 1, sampleRate: 44100)
            var byAdvance = byNext
            byNext.setTarget(0)
            byAdvance.setTarget(0)
            var frame = 0
            var worst: Float = 0
            var worstFrame = 0
            while frame < 1000 {
                for _ in 0..<blockSize { _ = byNext.next() }
                byAdvance.advance(by: blockSize)
                frame += blockSize
                if abs(byAdvance.value - byNext.value) > worst { worst = abs(byAdvance.value - byNext.value); worstFrame = frame }
                XCTAssertEqual(byAdvance.isSettled, byNext.isSettled, "block \(blockSize), after \(frame) frames")
            }
            XCTAssertLessThanOrEqual(worst, 1e-6, "block \(blockSize): advance and next disagree by \(worst) after \(worstFrame) frames")
            XCTAssertEqual(byAdvance.value, 0, "advance past the end lands exactly on the target")
            XCTAssertEqual(byNext.value, 0)
        }
    }

    func testAdvanceByZeroOrWhenSettledChangesNothing() {
        var smoother = LinearSmoother(value: 0.3, rampFrames: 10)
        smoother.advance(by: 100)
        XCTAssertEqual(smoother.value, 0.3)
        smoother.setTarget(1)
        smoother.advance(by: 0)
        smoother.advance(by: -3)
        XCTAssertEqual(smoother.value, 0.3)
        XCTAssertFalse(smoother.isSettled)
        smoother.advance(by: 10)
        XCTAssertEqual(smoother.value, 1)
        XCTAssertTrue(smoother.isSettled)
    }

    func testRetargetMidRampRestartsAFullRampFromTheCurrentValue() {
        for sampleRate in sampleRates {
            var smoother = LinearSmoother(value: 0, sampleRate: sampleRate)
            let frames = Int(smoother.rampFrames)
            smoother.setTarget(1)
            for _ in 0..<(frames / 3) { _ = smoother.next() }
            let reached = smoother.value
            XCTAssertEqual(reached, Float(frames / 3) / Float(frames), accuracy: 1e-5)
            smoother.setTarget(-1)
            let ideal = (-1 - reached) / Float(frames)
            var previous = reached
            for frame in 1..<frames {
                let value = smoother.next()
                XCTAssertEqual(value - previous, ideal, accuracy: 1e-6, "\(sampleRate) Hz: retargeted ramp step at frame \(frame)")
                XCTAssertNotEqual(value, -1)
                previous = value
            }
            XCTAssertEqual(smoother.next(), -1, "the new ramp lasts a full rampFrames from the retarget")
        }
    }

    func testSettingTheSameTargetDoesNotRestartTheRamp() {
        var smoother = LinearSmoother(value: 0, rampFrames: 100)
        smoother.setTarget(1)
        for _ in 0..<60 { _ = smoother.next() }
        smoother.setTarget(1)
        for _ in 0..<39 { _ = smoother.next() }
        XCTAssertNotEqual(smoother.value, 1)
        XCTAssertEqual(smoother.next(), 1, "the original schedule holds: 100 frames from the first setTarget")
    }

    func testResetJumpsWithoutARamp() {
        var smoother = LinearSmoother(value: 0, rampFrames: 100)
        smoother.setTarget(1)
        _ = smoother.next()
        smoother.reset(to: 0.75)
        XCTAssertTrue(smoother.isSettled)
        XCTAssertEqual(smoother.value, 0.75)
        XCTAssertEqual(smoother.target, 0.75)
        XCTAssertEqual(smoother.next(), 0.75)
    }

    func testOneFrameRampJumpsOnTheFirstFrame() {
        var smoother = LinearSmoother(value: 0, rampFrames: 1)
        smoother.setTarget(0.6)
        XCTAssertEqual(smoother.next(), 0.6)
        XCTAssertTrue(smoother.isSettled)
    }
}
