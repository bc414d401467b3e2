// ReverbKernel's engineering: dry exactness, silence, exact-zero tails, NaN recovery, block-size independence, click-free sweeps, mono/stereo.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackDSP
import XCTest

final class ReverbKernelTests: XCTestCase {
    private typealias Measure = ReverbMeasurement

    private func noise(_ frames: Int, seed: UInt32) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return 0.5 * (Float(state >> 8) / Float(1 << 23) - 1)
        }
    }

    func testMixZeroIsTheDrySignalBitForBit() {
        let left = noise(5000, seed: 1), right = noise(5000, seed: 2)
        for blockSize in [7, 1024] {
            let stereoOut = Measure.render(ReverbParameters(decay: 3, mix: 0), left: left, right: right, blockSize: blockSize)
            XCTAssertEqual(stereoOut.left, left, "block \(blockSize): stereo left")
            XCTAssertEqual(stereoOut.right, right, "block \(blockSize): stereo right")
            let monoOut = Measure.render(ReverbParameters(mix: 0), sampleRate: 44100, left: left, blockSize: blockSize)
            XCTAssertEqual(monoOut.left, left, "block \(blockSize): mono to left")
            XCTAssertEqual(monoOut.right, left, "block \(blockSize): mono to right")
        }
    }

    func testSilenceInIsExactSilenceOut() {
        for parameters in [ReverbParameters(), ReverbParameters(decay: 20, predelay: 0, size: 0, damping: 0, diffusion: 1, mix: 1)] {
            let output = Measure.render(parameters, left: [Float](repeating: 0, count: 20000))
            XCTAssertTrue(output.left.allSatisfy { $0 == 0 } && output.right.allSatisfy { $0 == 0 }, "\(parameters)")
        }
    }

    func testTailDecaysToExactZeroWithoutSubnormals() {
        // No FTZ here: the test thread runs with the default floating-point environment.
        for (sampleRate, decay, damping) in [(48000.0, Float(0.5), Float(0)), (44100, 1, 0.5)] {
            var kernel = ReverbKernel(parameters: ReverbParameters(decay: decay, damping: damping, mix: 1), sampleRate: sampleRate)
            let frames = Int(sampleRate * (Double(decay) * 3.4 + 1.5))
            let output = Measure.render(&kernel, left: Measure.impulse(frames: frames), blockSize: 256)
            for channel in [output.left, output.right] {
                let last = channel.lastIndex { $0 != 0 }!
                // −200 dB at 60 dB per decay time is 3.33 decay times, then up to ~0.6 s for the memory to flush.
                XCTAssertLessThan(Double(last) / sampleRate, Double(decay) * 3.4 + 1, "\(sampleRate) Hz, decay \(decay): exact 0 from here on")
                XCTAssertFalse(channel.contains { $0 != 0 && $0.magnitude < Float.leastNormalMagnitude }, "no subnormal output")
            }
            // And it wakes up again: a new impulse is heard.
            let again = Measure.render(&kernel, left: Measure.impulse(frames: Int(sampleRate * 0.2)), blockSize: 256)
            XCTAssertTrue(again.left.contains { $0 != 0 }, "\(sampleRate) Hz: the reverb answers after being silent")
        }
    }

    func testNoStateEverBecomesSubnormalWhileALongTailRings() {
        // No FTZ: the diffuser dies away ~100 times faster than a 20 s tank, so it is flushed on its own.
        var kernel = ReverbKernel(parameters: ReverbParameters(decay: 20, diffusion: 1, mix: 1), sampleRate: 48000)
        var input = Measure.impulse(frames: 12000)
        for block in 0..<16 {
            _ = Measure.render(&kernel, left: input, blockSize: 256)
            XCTAssertEqual(kernel.stateSubnormalCount(), 0, "after \(Double(block + 1) * 0.25) s")
            input = [Float](repeating: 0, count: 12000)
        }
    }

    func testNaNInputIsFlushedAndResetRestoresFiniteOutput() {
        var kernel = ReverbKernel(parameters: ReverbParameters(decay: 5, mix: 0.5), sampleRate: 48000)
        var poisoned = noise(2000, seed: 3)
        poisoned[100] = .nan
        poisoned[700] = .infinity
        _ = Measure.render(&kernel, left: poisoned, blockSize: 253)
        kernel.reset()
        let afterReset = Measure.render(&kernel, left: noise(20000, seed: 4), blockSize: 253)
        XCTAssertTrue(afterReset.left.allSatisfy(\.isFinite) && afterReset.right.allSatisfy(\.isFinite), "after reset")
        XCTAssertTrue(afterReset.left.contains { $0 != 0 }, "and still reverberating")

        // Without a reset, the tank clears itself within one control tick (32 samples) of a non-finite value.
        let output = Measure.render(ReverbParameters(decay: 5, predelay: 0, mix: 0.5), left: poisoned + noise(4000, seed: 5), blockSize: 64)
        let lastBad = max(output.left.lastIndex { !$0.isFinite } ?? 0, output.right.lastIndex { !$0.isFinite } ?? 0)
        XCTAssertLessThan(lastBad, 700 + 32, "finite again within a tick of the last bad input")
    }

    func testBlockSizesGiveTheSameOutputEvenAcrossAParameterChange() {
        let left = noise(6000, seed: 6), right = noise(6000, seed: 7)
        func run(_ blockSize: Int) -> (left: [Float], right: [Float]) {
            var kernel = ReverbKernel(parameters: ReverbParameters(decay: 2, predelay: 7, mix: 0.6), sampleRate: 48000)
            var changed = false
            return Measure.render(&kernel, left: left, right: right, blockSize: blockSize) { frame, kernel in
                // Changes reach the loop at the next 32-sample tick: any block start in 993…1024 lands on frame 1024.
                guard !changed, frame > 992 else { return }
                changed = true
                kernel.update(ReverbParameters(decay: 0.7, predelay: 40, size: 0.2, damping: 0.9, diffusion: 0.3, mix: 0.9, width: 0.4))
            }
        }
        let reference = run(1)
        for blockSize in [7, 253, 1024] {
            let output = run(blockSize)
            for (channel, expected) in [(output.left, reference.left), (output.right, reference.right)] {
                let worst = zip(channel, expected).map { ($0 - $1).magnitude }.max()!
                XCTAssertLessThanOrEqual(worst, 1e-6, "block \(blockSize) against block 1")
            }
        }
    }

    /// Mono and true stereo at 44.1, 48 and 96 kHz: 0.4 s (past the end of the delay-line ring, so the reads
    /// run through its mirrored rows), starting silent, with the lines gliding from size 1 to 0.3 all along:
    /// blocks of 7, 253 and 1024 frames give the output of 1-frame blocks bit for bit.
    func testBlockSizesGiveTheSameOutputPastTheRingsEndAtEveryRate() {
        for sampleRate in [44100.0, 48000, 96000] {
            let frames = Int(0.4 * sampleRate)
            let left = [Float](repeating: 0, count: 100) + noise(frames - 100, seed: 8)
            let right = [Float](repeating: 0, count: 100) + noise(frames - 100, seed: 9)
            for isStereo in [false, true] {
                func run(_ blockSize: Int) -> (left: [Float], right: [Float]) {
                    var kernel = ReverbKernel(
                        parameters: ReverbParameters(decay: 3, predelay: 0, size: 1, mix: 1), sampleRate: sampleRate, isStereo: isStereo)
                    kernel.update(ReverbParameters(decay: 3, predelay: 0, size: 0.3, mix: 1))
                    return Measure.render(&kernel, left: left, right: right, blockSize: blockSize)
                }
                assertBlockSizesMatchBlockOne(run, context: "\(sampleRate) Hz, \(isStereo ? "stereo" : "mono")")
            }
        }
    }

    /// A tank that wakes mid-tick (after 19 frames of silence) has its modulation segments out of phase with
    /// the 32-sample ticks, so a tick of a large block spans two segments: mono and true stereo, with every
    /// ramp moving (decay, damping, diffusion, mix, width and size changed at frame 1000), blocks of 7, 253 and
    /// 1024 frames give the output of 1-frame blocks bit for bit.
    func testATankWokenMidTickGivesTheSameOutputAtEveryBlockSize() {
        let left = [Float](repeating: 0, count: 19) + noise(8000, seed: 11)
        let right = [Float](repeating: 0, count: 19) + noise(8000, seed: 12)
        for isStereo in [false, true] {
            func run(_ blockSize: Int) -> (left: [Float], right: [Float]) {
                var kernel = ReverbKernel(parameters: ReverbParameters(decay: 2, predelay: 3, mix: 0.5), sampleRate: 48000, isStereo: isStereo)
                var changed = false
                return Measure.render(&kernel, left: left, right: right, blockSize: blockSize) { frame, kernel in
                    guard !changed, frame >= 1000 else { return }
                    changed = true
                    kernel.update(ReverbParameters(decay: 0.9, predelay: 3, size: 0.4, damping: 0.8, diffusion: 0.4, mix: 0.8, width: 0.5))
                }
            }
            assertBlockSizesMatchBlockOne(run, context: isStereo ? "stereo" : "mono")
        }
    }

    /// The tank sleeps through exact silence, and its modulation keeps awake time: after 13, 100 or 4000 frames
    /// of silence (any phase against the 32-sample control ticks) the output is the immediately fed one's,
    /// shifted, within 1e-6 (as a live run, which starts in silence, must match an offline render).
    func testOutputDoesNotDependOnHowLongTheTankSlept() {
        for sampleRate in [44100.0, 96000] {
            let signal = noise(Int(0.3 * sampleRate), seed: 10)
            for isStereo in [false, true] {
                func run(silence: Int) -> [Float] {
                    var kernel = ReverbKernel(parameters: ReverbParameters(decay: 2, mix: 0.7), sampleRate: sampleRate, isStereo: isStereo)
                    let input = [Float](repeating: 0, count: silence) + signal
                    return Array(Measure.render(&kernel, left: input, blockSize: 253).left.dropFirst(silence))
                }
                let reference = run(silence: 0)
                for silence in [13, 100, 4000] {
                    let worst = zip(run(silence: silence), reference).map { ($0 - $1).magnitude }.max()!
                    XCTAssertLessThanOrEqual(worst, 1e-6, "\(sampleRate) Hz, \(isStereo ? "stereo" : "mono"), after \(silence) frames")
                }
            }
        }
    }

    func testFastParameterSweepsMakeNoClicks() {
        let sampleRate = 48000.0, frequency = 110.0
        let input = (0..<72000).map { frame -> Float in
            Float(0.5 * min(1, Double(frame) / 4800) * sin(2 * Double.pi * frequency * Double(frame) / sampleRate))
        }
        // A 110 Hz signal of peak A moves at most 2π·110/fs·A per sample; a click would step far beyond.
        // Bound: 1.25 × that for the output's own peak (measured ≤ 1.05).
        let slope = Float(2 * Double.pi * frequency / sampleRate)
        let sweeps: [(String, (inout ReverbParameters, Float) -> Void)] = [
            ("mix 0→1", { $0.mix = $1 }),
            ("decay 0.1→20 s", { $0.decay = 0.1 + 19.9 * $1; $0.mix = 0.5 }),
            ("decay 20→0.1 s", { $0.decay = 20 - 19.9 * $1; $0.mix = 0.5 }),
            ("size 0→1", { $0.size = $1; $0.mix = 0.5 }),
            ("size 1→0", { $0.size = 1 - $1; $0.mix = 0.5 }),
            ("predelay 0→200 ms", { $0.predelay = 200 * $1; $0.mix = 0.5 }),
            ("width, damping, diffusion", { $0.width = 1 - $1; $0.damping = 1 - $1; $0.diffusion = $1; $0.mix = 0.5 }),
        ]
        for (name, sweep) in sweeps {
            var kernel = ReverbKernel(parameters: ReverbParameters(decay: 1, predelay: 0, size: 0.5, damping: 1, mix: 0), sampleRate: sampleRate)
            let output = Measure.render(&kernel, left: input, blockSize: 32) { frame, kernel in
                guard frame >= 24000, frame < 24960 else { return }   // 20 ms of block-by-block changes
                var parameters = kernel.parameters
                sweep(&parameters, Float(frame - 24000 + 32) / 960)
                kernel.update(parameters)
            }
            for channel in [output.left, output.right] {
                let segment = Array(channel[23000...])
                let peak = segment.map(\.magnitude).max()!
                XCTAssertLessThanOrEqual(Measure.largestStep(segment), 1.25 * slope * peak, "\(name): largest step")
            }
        }
    }

    func testStereoInputReverberatesItsMeanAndKeepsItsDryChannels() {
        let left = noise(8000, seed: 8), right = noise(8000, seed: 9)
        let mean = zip(left, right).map { 0.5 * ($0 + $1) }
        let parameters = ReverbParameters(decay: 1.2, predelay: 3, mix: 0.7)
        let dry = ReverbDesignLaw.dryGain(mix: 0.7)
        let stereoOut = Measure.render(parameters, left: left, right: right)
        let monoOut = Measure.render(parameters, left: mean)
        for frame in left.indices {
            // Wet parts agree within float rounding of the dry term (1e-6); the dry parts stay apart.
            XCTAssertEqual(stereoOut.left[frame] - dry * left[frame], monoOut.left[frame] - dry * mean[frame], accuracy: 1e-6)
            XCTAssertEqual(stereoOut.right[frame] - dry * right[frame], monoOut.right[frame] - dry * mean[frame], accuracy: 1e-6)
        }
        let twinOut = Measure.render(parameters, left: left, right: left)
        let singleOut = Measure.render(parameters, left: left)
        XCTAssertEqual(twinOut.left, singleOut.left, "identical stereo channels sound exactly like the mono input")
        XCTAssertEqual(twinOut.right, singleOut.right)
    }

    func testParametersAreClampedAndNaNFallsBackToTheDefault() {
        var kernel = ReverbKernel(parameters: ReverbParameters(decay: 99, predelay: -5, size: 2), sampleRate: 48000)
        XCTAssertEqual(kernel.parameters.decay, 20)
        XCTAssertEqual(kernel.parameters.predelay, 0)
        XCTAssertEqual(kernel.parameters.size, 1)
        kernel.update(ReverbParameters(decay: .nan, mix: .infinity, width: -.infinity))
        XCTAssertEqual(kernel.parameters.decay, ReverbParameters.defaults.decay)
        XCTAssertEqual(kernel.parameters.mix, 1)
        XCTAssertEqual(kernel.parameters.width, 0)
        let output = Measure.render(&kernel, left: noise(3000, seed: 10), blockSize: 253)
        XCTAssertTrue(output.left.allSatisfy(\.isFinite))
    }
}

/// The published mix law, restated for the tests.
private enum ReverbDesignLaw {
    static func dryGain(mix: Float) -> Float { Float(cos(Double(mix) * Double.pi / 2)) }
}

/// Asserts that `run` leaves a wet tail at block 1 and gives that output bit for bit at blocks of 7, 253 and 1024.
private func assertBlockSizesMatchBlockOne(
    _ run: (Int) -> (left: [Float], right: [Float]), context: String, file: StaticString = #filePath, line: UInt = #line
) {
    let reference = run(1)
    XCTAssertGreaterThan(reference.left.suffix(1000).map(\.magnitude).max()!, 0.01, "\(context): a wet tail", file: file, line: line)
    for blockSize in [7, 253, 1024] {
        let output = run(blockSize)
        XCTAssertTrue(output.left == reference.left && output.right == reference.right,
                      "\(context), block \(blockSize) against block 1", file: file, line: line)
    }
}
