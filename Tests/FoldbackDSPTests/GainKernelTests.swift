// GainKernel: settled gain and polarity, smoothed gain changes, a polarity flip ramping through zero, channels and aliasing.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class GainKernelTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    /// Runs `kernel` over `input` (one array per channel) in blocks of `blockSize`, out of place unless `inPlace`.
    private func run(_ kernel: inout GainKernel, _ input: [[Float]], blockSize: Int, inPlace: Bool = false) -> [[Float]] {
        let channels = input.count
        let frames = input[0].count
        let inputBuffers = input.map { samples -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            buffer.initialize(from: samples, count: frames)
            return buffer
        }
        let outputBuffers = inPlace ? inputBuffers : input.map { _ -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            buffer.initialize(repeating: .nan, count: frames)
            return buffer
        }
        defer {
            inputBuffers.forEach { $0.deallocate() }
            if !inPlace { outputBuffers.forEach { $0.deallocate() } }
        }
        let inputTable = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels)
        let outputTable = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
        defer { inputTable.deallocate(); outputTable.deallocate() }
        var offset = 0
        while offset < frames {
            let count = min(blockSize, frames - offset)
            for channel in 0..<channels {
                inputTable[channel] = UnsafePointer(inputBuffers[channel] + offset)
                outputTable[channel] = outputBuffers[channel] + offset
            }
            kernel.process(inputs: inputTable, outputs: outputTable, channels: channels, frames: count)
            offset += count
        }
        return outputBuffers.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }

    private func sine(_ frames: Int, frequency: Double = 997, sampleRate: Double = 48000) -> [Float] {
        (0..<frames).map { Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    func testSettledGainScalesEverySample() {
        let input = sine(1000)
        for gainDB: Float in [0, -6.0206, 12, -40] {
            var kernel = GainKernel(gainDB: gainDB, isInverted: false, sampleRate: 48000)
            let output = run(&kernel, [input], blockSize: 253)[0]
            let gain = Decibels.linearGain(fromDecibels: gainDB)
            for frame in input.indices {
                XCTAssertEqual(output[frame], input[frame] * gain, accuracy: 1e-6, "\(gainDB) dB, frame \(frame)")
            }
        }
    }

    func testUnityGainIsBitTransparent() {
        let input = sine(1024)
        var kernel = GainKernel(gainDB: 0, isInverted: false, sampleRate: 44100)
        XCTAssertEqual(run(&kernel, [input], blockSize: 7)[0], input)
    }

    func testInvertedPolarityNegatesEverySample() {
        let input = sine(1024)
        var kernel = GainKernel(gainDB: -6.0206, isInverted: true, sampleRate: 96000)
        let output = run(&kernel, [input], blockSize: 1024)[0]
        for frame in input.indices {
            XCTAssertEqual(output[frame], -0.5 * input[frame], accuracy: 1e-6, "frame \(frame)")
        }
    }

    func testGainChangeRampsLinearlyAndArrivesAfterTheSmoothingTime() {
        for sampleRate in sampleRates {
            for blockSize in [1, 7, 253, 1024] {
                var kernel = GainKernel(gainDB: 0, isInverted: false, sampleRate: sampleRate)
                kernel.update(gainDB: -12, isInverted: false)
                XCTAssertEqual(kernel.gainDB, -12)
                let rampFrames = Int((0.02 * sampleRate).rounded())
                let target = Decibels.linearGain(fromDecibels: -12)
                let output = run(&kernel, [[Float](repeating: 1, count: rampFrames + 500)], blockSize: blockSize)[0]
                let step = (target - 1) / Float(rampFrames)
                let worst = (0..<(rampFrames - 1)).map { abs(output[$0] - (1 + step * Float($0 + 1))) }.max()!
                // Linear within 5e-5 (the strict straight-line check of the ramp itself is in LinearSmootherTests).
                XCTAssertLessThan(worst, 5e-5, "\(sampleRate) Hz block \(blockSize): deviation from the linear ramp")
                XCTAssertFalse(output[..<(rampFrames - 1)].contains(target), "\(sampleRate) Hz block \(blockSize): on target early")
                XCTAssertTrue(output[(rampFrames - 1)...].allSatisfy { $0 == target },
                              "\(sampleRate) Hz block \(blockSize): exactly on target from frame \(rampFrames - 1) on")
            }
        }
    }

    func testPolarityFlipRampsThroughZeroWithoutAStep() {
        for sampleRate in sampleRates {
            var kernel = GainKernel(gainDB: 0, isInverted: false, sampleRate: sampleRate)
            kernel.update(gainDB: 0, isInverted: true)
            XCTAssertTrue(kernel.isInverted)
            let rampFrames = Int((0.02 * sampleRate).rounded())
            let output = run(&kernel, [[Float](repeating: 1, count: rampFrames * 2)], blockSize: 253)[0]
            var previous: Float = 1
            var largestStep: Float = 0
            for value in output {
                XCTAssertLessThanOrEqual(value, previous, "a flip of DC falls monotonically")
                largestStep = max(largestStep, abs(value - previous))
                previous = value
            }
            // Click-free: no step more than 10 % above the ideal ramp slope 2/rampFrames.
            XCTAssertLessThanOrEqual(largestStep, 2 / Float(rampFrames) * 1.1, "\(sampleRate) Hz: no step larger than the ramp's")
            let crossing = output.firstIndex { $0 <= 0 }!
            XCTAssertEqual(Double(crossing), Double(rampFrames) / 2 - 1, accuracy: 1, "\(sampleRate) Hz: passes zero halfway")
            XCTAssertEqual(output[rampFrames - 1], -1, "fully inverted after the smoothing time")
            XCTAssertEqual(output.last, -1)
        }
    }

    func testBothChannelsFollowTheSameRamp() {
        var kernel = GainKernel(gainDB: -20, isInverted: false, sampleRate: 48000)
        kernel.update(gainDB: 0, isInverted: false)
        let ones = [Float](repeating: 1, count: 1500)
        let output = run(&kernel, [ones, ones.map { -$0 }], blockSize: 253)
        for frame in ones.indices {
            XCTAssertEqual(output[1][frame], -output[0][frame], "frame \(frame): channels share one gain")
        }
        XCTAssertEqual(output[0][959], 1)
    }

    func testInPlaceProcessingMatchesOutOfPlace() {
        let input = sine(2000)
        var outOfPlace = GainKernel(gainDB: 3, isInverted: false, sampleRate: 48000)
        var inPlace = outOfPlace
        outOfPlace.update(gainDB: -9, isInverted: true)
        inPlace.update(gainDB: -9, isInverted: true)
        XCTAssertEqual(run(&inPlace, [input], blockSize: 7, inPlace: true), run(&outOfPlace, [input], blockSize: 7))
    }

    func testSettleJumpsToTheTarget() {
        var kernel = GainKernel(gainDB: 0, isInverted: false, sampleRate: 48000)
        kernel.update(gainDB: -6.0206, isInverted: true)
        kernel.settle()
        let output = run(&kernel, [[1, 1, 1]], blockSize: 1)[0]
        for value in output { XCTAssertEqual(value, -0.5, accuracy: 1e-6) }
    }
}
