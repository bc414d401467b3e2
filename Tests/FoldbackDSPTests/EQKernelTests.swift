// The EQ kernel's realtime behaviour: click-free sweeps, block-size independence, silence, NaN recovery, stereo lanes, glides.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class EQKernelTests: XCTestCase {
    private let rate = 48000.0

    /// Sweeps a bell from 100 Hz to 10 kHz (exponentially) in 50 ms while its gain flips between +12 and
    /// −12 dB every 10 ms, over a 200 Hz sine; the targets are set every `controlFrames` frames (a fast
    /// controller, or once per JACK period).
    private func sweep(smoothingTime: Double, controlFrames: Int) -> (output: [Float], input: [Float]) {
        let input = EQMeasurement.sine(frequency: 200, sampleRate: rate, frames: 9600)
        var kernel = EQKernel(bands: [EQBand(type: .peak, frequency: 100, gainDB: 12, q: 1)], channels: 1, sampleRate: rate,
                              smoothingTime: smoothingTime)
        let output = EQMeasurement.render(&kernel, [input], blockSize: controlFrames) { kernel, start in
            let position = min(1, Double(start) / 2400)            // 2400 frames = 50 ms
            kernel.setFrequency(100 * pow(100, position), band: 0)
            kernel.setGain((start / 480) % 2 == 0 ? 12 : -12, band: 0)
        }[0]
        return (output, input)
    }

    func testAFastSweepIsClickFree() {
        // The bound: the largest sample-to-sample step of the input times the largest gain the band can
        // have on the way (+12 dB = ×3.98), plus 10 %: what a clean +12 dB copy of the input could do.
        // Measured: about 0.024 against a bound of 0.057 (input step 0.013).
        for controlFrames in [32, 256] {
            let (output, input) = sweep(smoothingTime: LinearSmoother.defaultTime, controlFrames: controlFrames)
            let bound = EQMeasurement.largestStep(input) * 3.98 * 1.1
            let largest = EQMeasurement.largestStep(output)
            XCTAssertLessThan(largest, bound, "control every \(controlFrames) frames: largest output step \(largest), bound \(bound)")
            XCTAssertTrue(output.allSatisfy(\.isFinite))
        }
        // The same sweep with coefficients jumping to each new target once per period does click (about
        // 0.68, 12 × the bound): the bound is not slack.
        let (jumpy, input) = sweep(smoothingTime: 1 / rate, controlFrames: 256)
        XCTAssertGreaterThan(EQMeasurement.largestStep(jumpy), 4 * EQMeasurement.largestStep(input) * 3.98 * 1.1)
    }

    func testGlidesReachTheirTargetsWithinTheSmoothingTime() {
        var kernel = EQKernel(bands: [EQBand(type: .peak, frequency: 200, gainDB: 0, q: 1)], channels: 1, sampleRate: rate)
        kernel.setFrequency(4000, band: 0)
        kernel.setGain(9, band: 0)
        kernel.setQ(3, band: 0)
        let input = EQMeasurement.sine(frequency: 4000, sampleRate: rate, frames: 4800)
        let output = EQMeasurement.render(&kernel, [input], blockSize: 64)[0]
        XCTAssertTrue(kernel.isSettled)
        XCTAssertEqual(kernel.currentBand(0).frequency, 4000, accuracy: 1e-9)
        XCTAssertEqual(kernel.currentBand(0).gainDB, 9, accuracy: 1e-12)
        XCTAssertEqual(kernel.currentBand(0).q, 3, accuracy: 1e-12)
        // After 20 ms (+ settling of the filter itself) a 4 kHz sine is boosted by 9 dB.
        let gain = EQMeasurement.rmsDB(output[2400...]) - EQMeasurement.rmsDB(input[2400...])
        XCTAssertEqual(gain, 9, accuracy: 0.02)
    }

    func testBlockSizesGiveTheSameOutput() {
        let bands = [
            EQBand(type: .highPass, frequency: 70, slopeDBPerOctave: 24), EQBand(type: .peak, frequency: 300, gainDB: -4, q: 2),
            EQBand(type: .highShelf, frequency: 8000, gainDB: 5), EQBand(type: .notch, frequency: 1000, q: 6, isEnabled: false),
        ]
        let input = [EQMeasurement.noise(frames: 6000, seed: 3), EQMeasurement.noise(frames: 6000, seed: 4)]
        var outputs: [[[Float]]] = []
        for blockSize in [1, 7, 253, 1024] {
            var kernel = EQKernel(bands: bands, outputGainDB: 2, channels: 2, sampleRate: rate)
            outputs.append(EQMeasurement.render(&kernel, input, blockSize: blockSize) { kernel, start in
                guard start == 0 else { return }   // glides and a crossfade start with the signal
                kernel.setFrequency(2500, band: 1)
                kernel.setGain(6, band: 1)
                kernel.setEnabled(true, band: 3)
                kernel.setOutputGain(decibels: -3)
            })
        }
        for (index, output) in outputs.enumerated().dropFirst() {
            for channel in 0..<2 {
                let difference = zip(output[channel], outputs[0][channel]).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThanOrEqual(difference, 1e-6, "block size #\(index) channel \(channel)")
            }
        }
    }

    func testSilenceInGivesExactSilenceOut() {
        let bands = (0..<16).map { EQBand(type: EQBandType.allCases[$0 % 8], frequency: 50 * pow(1.5, Double($0)), gainDB: 24, q: 5) }
        var kernel = EQKernel(bands: bands, outputGainDB: 24, channels: 2, sampleRate: rate)
        let silence = [Float](repeating: 0, count: 4096)
        let output = EQMeasurement.render(&kernel, [silence, silence], blockSize: 256)
        XCTAssertTrue(output.allSatisfy { $0.allSatisfy { $0 == 0 && $0.sign == .plus } })

        // After a signal, the tail decays and the denormal guard brings it to exact zero (here within 1 s).
        var decaying = EQKernel(bands: [EQBand(type: .peak, frequency: 300, gainDB: 12, q: 4)], channels: 1, sampleRate: rate)
        let burst = EQMeasurement.noise(frames: 1000) + [Float](repeating: 0, count: 48000)
        let tail = EQMeasurement.render(&decaying, [burst], blockSize: 512)[0]
        XCTAssertTrue(tail.suffix(1000).allSatisfy { $0 == 0 })
    }

    func testNaNInputIsRecoveredFromAndResetClearsIt() {
        let bands = [EQBand(type: .lowShelf, frequency: 100, gainDB: 6), EQBand(type: .highPass, frequency: 40, slopeDBPerOctave: 24)]
        var kernel = EQKernel(bands: bands, channels: 1, sampleRate: rate)
        var poisoned = EQMeasurement.noise(frames: 512)
        poisoned[100] = .nan
        let first = EQMeasurement.render(&kernel, [poisoned], blockSize: 512)[0]
        XCTAssertTrue(first[100].isNaN, "the block with the NaN shows it")
        let input = EQMeasurement.noise(frames: 2048, seed: 9)
        XCTAssertTrue(EQMeasurement.render(&kernel, [input], blockSize: 256)[0].allSatisfy(\.isFinite), "the next block is finite")

        _ = EQMeasurement.render(&kernel, [poisoned], blockSize: 512)
        kernel.reset()
        var fresh = EQKernel(bands: bands, channels: 1, sampleRate: rate)
        XCTAssertEqual(EQMeasurement.render(&kernel, [input], blockSize: 256)[0], EQMeasurement.render(&fresh, [input], blockSize: 256)[0],
                       "after reset the kernel behaves as new")
    }

    func testStereoLanesEqualTwoMonoRuns() {
        let bands = [EQBand(type: .peak, frequency: 2000, gainDB: 7, q: 2), EQBand(type: .lowPass, frequency: 9000, slopeDBPerOctave: 24)]
        let left = EQMeasurement.noise(frames: 3000, seed: 5)
        let right = EQMeasurement.sine(frequency: 440, sampleRate: rate, frames: 3000)
        let change: (inout EQKernel, Int) -> Void = { kernel, start in
            if start == 1024 { kernel.setGain(-5, band: 0); kernel.setEnabled(false, band: 1) }
        }
        var stereo = EQKernel(bands: bands, channels: 2, sampleRate: rate)
        var monoLeft = EQKernel(bands: bands, channels: 1, sampleRate: rate)
        var monoRight = EQKernel(bands: bands, channels: 1, sampleRate: rate)
        let both = EQMeasurement.render(&stereo, [left, right], blockSize: 128, beforeBlock: change)
        XCTAssertEqual(both[0], EQMeasurement.render(&monoLeft, [left], blockSize: 128, beforeBlock: change)[0])
        XCTAssertEqual(both[1], EQMeasurement.render(&monoRight, [right], blockSize: 128, beforeBlock: change)[0])
    }

    /// A mono kernel of ten bands, once its cascade is planned, filters straight from input to output: with a
    /// settled output gain of −3 dB its output is exactly the 0 dB kernel's times the gain, at blocks of 1, 7,
    /// 253 and 1024 frames; and an output gain ramp (the ordinary path) with a glide (which plans afresh at
    /// every step) gives the same output at every block size (within 1e-6).
    func testPlannedMonoCascadeWritesTheOutputItself() {
        let bands = (0..<10).map {
            EQBand(type: .peak, frequency: 100 * pow(1.8, Double($0)), gainDB: $0 % 2 == 0 ? 4 : -3, q: 1.5)
        }
        let input = EQMeasurement.noise(frames: 5000, seed: 9)
        let gain = Double(Decibels.linearGain(fromDecibels: -3))
        var reference: [Float] = []
        for blockSize in [1, 7, 253, 1024] {
            var unity = EQKernel(bands: bands, channels: 1, sampleRate: rate)
            var quieter = EQKernel(bands: bands, outputGainDB: -3, channels: 1, sampleRate: rate)
            let plain = EQMeasurement.render(&unity, [input], blockSize: blockSize)[0]
            let scaled = EQMeasurement.render(&quieter, [input], blockSize: blockSize)[0]
            let mismatches = zip(scaled, plain).filter { $0 != Float(Double($1) * gain) }.count
            XCTAssertEqual(mismatches, 0, "blocks of \(blockSize): samples that are not the 0 dB output times the gain")
            var changing = EQKernel(bands: bands, channels: 1, sampleRate: rate)
            let changed = EQMeasurement.render(&changing, [input], blockSize: blockSize) { kernel, start in
                if start == 0 {
                    kernel.setOutputGain(decibels: 4)
                    kernel.setFrequency(700, band: 3)
                }
            }[0]
            if reference.isEmpty { reference = changed }
            XCTAssertLessThanOrEqual(zip(changed, reference).map { abs($0 - $1) }.max() ?? 0, 1e-6, "blocks of \(blockSize)")
        }
    }

    func testDisablingABandCrossfadesToTheDrySignal() {
        var kernel = EQKernel(bands: [EQBand(type: .peak, frequency: 1000, gainDB: 12, q: 1)], channels: 1, sampleRate: rate)
        let input = EQMeasurement.sine(frequency: 1000, sampleRate: rate, frames: 9600)
        let output = EQMeasurement.render(&kernel, [input], blockSize: 100) { kernel, start in
            if start == 4800 { kernel.setEnabled(false, band: 0) }
        }[0]
        XCTAssertEqual(EQMeasurement.rmsDB(output[2400..<4800]) - EQMeasurement.rmsDB(input[2400..<4800]), 12, accuracy: 0.02)
        XCTAssertEqual(Array(output[(4800 + 960)...]), Array(input[(4800 + 960)...]), "20 ms later the band is out and the signal untouched")
        XCTAssertLessThan(EQMeasurement.largestStep(output), EQMeasurement.largestStep(input) * 3.98 * 1.1)
        XCTAssertFalse(kernel.band(0).isEnabled)
    }
}
