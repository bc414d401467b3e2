// A stereo send's width into a stereo bus (0 mono sum, 1 as is, 2 wider), with and without its balance, on any block size.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class SendWidthTests: XCTestCase {
    private let sampleRate = 48000.0
    /// Whole numbers of periods in `frames`, so the two tones are orthogonal and each one's amplitude is exact.
    private let frames = 4800
    private let leftTone = (frequency: 1000.0, amplitude: Float(0.5))
    private let rightTone = (frequency: 1500.0, amplitude: Float(0.25))

    /// The amplitude of the `frequency` component of `samples` (a single-bin DFT over whole periods).
    private func amplitude(of frequency: Double, in samples: ArraySlice<Float>) -> Double {
        var sine = 0.0, cosine = 0.0
        for (offset, sample) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(offset + samples.startIndex) / sampleRate
            sine += Double(sample) * sin(phase)
            cosine += Double(sample) * cos(phase)
        }
        return 2 * (sine * sine + cosine * cosine).squareRoot() / Double(samples.count)
    }

    /// Checks that `output` carries `tone` at `gain` × its amplitude within 0.01 dB (or not at all for gain 0).
    private func assertComponent(
        _ output: ArraySlice<Float>, _ tone: (frequency: Double, amplitude: Float), gain: Double, _ label: String
    ) {
        let measured = amplitude(of: tone.frequency, in: output)
        if gain < 1e-6 {
            XCTAssertLessThan(measured, 1e-6, "\(label): absent")
            return
        }
        XCTAssertEqual(20 * log10(measured / Double(tone.amplitude)), 20 * log10(gain), accuracy: 0.01, label)
    }

    /// What each bus side should carry of each strip side at `width` and balance gains `balance` (mid/side:
    /// L' = L·(1+w)/2 + R·(1−w)/2, then the balance).
    private func expected(width: Double, balance: (left: Double, right: Double)) -> (leftOfL: Double, leftOfR: Double, rightOfR: Double, rightOfL: Double) {
        let straight = (1 + width) / 2, crossed = abs(1 - width) / 2
        return (balance.left * straight, balance.left * crossed, balance.right * straight, balance.right * crossed)
    }

    private func render(width: Float?, pan: Float?, isPreFader: Bool, blockSize: Int) throws -> [[Float]] {
        let left = TestSignal.sine(frames: frames, frequency: leftTone.frequency, sampleRate: sampleRate, amplitude: leftTone.amplitude)
        let right = TestSignal.sine(frames: frames, frequency: rightTone.frequency, sampleRate: sampleRate, amplitude: rightTone.amplitude)
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
        try host.install(TestGraph.single(stripChannels: 2, busChannels: 2, gainDB: -6, pan: -1,
                                          send: SendDescription(bus: 0, isPreFader: isPreFader, pan: pan, width: width)),
                         sampleRate: sampleRate)
        let output = host.render([left, right], blockSize: blockSize)
        assertFullyWritten(output)
        return output
    }

    private func assertWidth(_ output: [[Float]], width: Double, balance: (left: Double, right: Double), scale: Double, _ label: String) {
        let gains = expected(width: width, balance: balance)
        assertComponent(output[0][...], leftTone, gain: gains.leftOfL * scale, "L in left, " + label)
        assertComponent(output[0][...], rightTone, gain: gains.leftOfR * scale, "R in left, " + label)
        assertComponent(output[1][...], rightTone, gain: gains.rightOfR * scale, "R in right, " + label)
        assertComponent(output[1][...], leftTone, gain: gains.rightOfL * scale, "L in right, " + label)
    }

    func testWidthMixesSidesOnEveryBlockSize() throws {
        for width: Float in [0, 0.5, 1, 2] {
            for blockSize in [1, 7, 253, 1024] {
                let output = try render(width: width, pan: 0, isPreFader: true, blockSize: blockSize)
                assertWidth(output, width: Double(width), balance: (1, 1), scale: 1, "width \(width), block \(blockSize)")
            }
        }
    }

    func testWidthAndBalanceTogetherPostFader() throws {
        let fader = Double(Decibels.linearGain(fromDecibels: -6))
        for (width, pan, balance) in [(Float(0), Float(-0.5), (1.0, 0.5)), (0.5, 0.25, (0.75, 1.0)), (0.5, 1, (0.0, 1.0))] {
            for blockSize in [1, 7, 253, 1024] {
                let output = try render(width: width, pan: pan, isPreFader: false, blockSize: blockSize)
                assertWidth(output, width: Double(width), balance: balance, scale: fader, "width \(width), balance \(pan), block \(blockSize)")
            }
        }
    }

    func testSendWithoutWidthPassesTheStripAsIs() throws {
        let output = try render(width: nil, pan: 0, isPreFader: true, blockSize: 253)
        assertWidth(output, width: 1, balance: (1, 1), scale: 1, "no width")
    }

    func testLiveWidthMoveIsSmoothedAndRangeChecked() throws {
        let left = TestSignal.dc(frames: 48000, value: 0.5)
        let right = TestSignal.dc(frames: 48000, value: -0.5)
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
        try host.install(TestGraph.single(stripChannels: 2, busChannels: 2, send: SendDescription(bus: 0, isPreFader: true)), sampleRate: sampleRate)
        let output = try host.render([left, right], blockSize: 256) { cycle, _ in
            if cycle == 20 { try host.engine.set(.sendWidth(strip: 0, send: 0), to: 0) }
        }
        // Width 0 sums +0.5 and −0.5 to silence; the move from ±0.5 ramps over the engine's smoothing time.
        XCTAssertEqual(output[0][19 * 256], 0.5, accuracy: 1e-6, "as is before the move")
        XCTAssertLessThan(output[0][(150 * 256)...].map { abs($0) }.max() ?? 1, 1e-6, "mono sum after the move")
        let ramp = TestSignal.frames(seconds: Double(LinearSmoother.defaultTime), sampleRate: sampleRate)
        for side in 0..<2 {
            XCTAssertLessThanOrEqual(TestSignal.largestStep(output[side]), TestSignal.clickFreeStep(delta: 0.5, frames: ramp), "side \(side) click-free")
        }
        XCTAssertThrowsError(try host.engine.set(.sendWidth(strip: 0, send: 0), to: 2.5))
        XCTAssertThrowsError(try host.engine.set(.sendWidth(strip: 0, send: 0), to: -0.1))
    }
}
