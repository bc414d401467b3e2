// CompressorKernel's RMS path (gain computer once per sub-block, interpolated gain) against a per-frame reference model.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class CompressorSubBlockTests: XCTestCase {
    /// The reference settings of the benchmark: RMS, −24 dB, 4:1, 6 dB knee, 10 ms / 100 ms.
    private func reference(attackMs: Float = 10, releaseMs: Float = 100) -> CompressorSettings {
        var settings = CompressorSettings()
        settings.thresholdDB = -24; settings.ratio = 4; settings.kneeDB = 6; settings.detection = .rms
        settings.attackMs = attackMs; settings.releaseMs = releaseMs
        return settings
    }

    /// The per-frame model of the compressor (no expander, mono, no lookahead), in Double with libm: the
    /// mean square one-pole, the textbook curve and the branching attack/release one-pole every frame.
    /// Returns the gain in dB of every frame.
    private func perFrameGainsDB(_ input: [Float], _ settings: CompressorSettings, sampleRate: Double) -> [Double] {
        let pole = { (ms: Float) in ms > 0 ? exp(-1 / (Double(ms) / 1000 * sampleRate)) : 0 }
        let (detector, attack, release) = (pole(10), pole(settings.attackMs), pole(settings.releaseMs))
        var meanSquare = 1e-20, compression = 0.0
        return input.map { sample in
            meanSquare = max(meanSquare * detector + Double(sample) * Double(sample) * (1 - detector), 1e-20)
            let target = -Double(CompressorCurveTests.theoreticalGainDB(Float(10 * log10(meanSquare)), settings))
            compression = target + (compression - target) * (target > compression ? attack : release)
            return -compression
        }
    }

    /// The largest difference in dB between the kernel's gain and the per-frame model's, over all frames and
    /// over the second half, where the input is above −60 dBFS (so the gain can be read from output over input).
    private func worstDeviationDB(
        _ input: [Float], _ settings: CompressorSettings, sampleRate: Double, blockSize: Int
    ) -> (all: Double, secondHalf: Double) {
        var kernel = CompressorKernel(settings: settings, channels: 1, sampleRate: sampleRate)
        defer { kernel.deallocate() }
        let output = Dynamics.render(&kernel, [input], blockSize: blockSize)[0]
        let model = perFrameGainsDB(input, settings, sampleRate: sampleRate)
        var worst = (all: 0.0, secondHalf: 0.0)
        for frame in input.indices where abs(input[frame]) > 1e-3 {
            let deviation = abs(20 * log10(Double(output[frame] / input[frame])) - model[frame])
            worst.all = max(worst.all, deviation)
            if frame >= input.count / 2 { worst.secondHalf = max(worst.secondHalf, deviation) }
        }
        return worst
    }

    /// A 1 kHz sine at −6 dBFS (18 dB over) from silence: once steady the gain follows the per-frame model
    /// within 0.002 dB (measured 0.0008 dB); through the onset, where the RMS level climbs fastest and the
    /// sub-block reads it up to 16 frames late, within 0.15 dB (measured 0.11 dB at 44.1 and 48 kHz,
    /// 0.05 dB at 96 kHz). At every block size and rate.
    func testSineGainFollowsThePerFrameModel() {
        for sampleRate in [44100.0, 48000, 96000] {
            let input = Dynamics.sine(Dynamics.frames(0.5, sampleRate), frequency: 1000, amplitude: 0.5, sampleRate: sampleRate)
            for blockSize in [1, 7, 253, 1024] {
                let worst = worstDeviationDB(input, reference(), sampleRate: sampleRate, blockSize: blockSize)
                XCTAssertLessThan(worst.secondHalf, 0.002, "steady, \(sampleRate) Hz, block \(blockSize)")
                XCTAssertLessThan(worst.all, 0.15, "onset, \(sampleRate) Hz, block \(blockSize)")
            }
        }
    }

    /// Steps −40 → −6 → −40 dBFS of 1 kHz: within 0.15 dB of the per-frame model at the reference 10 ms attack
    /// (measured 0.11 dB, at the step up), within 0.6 dB at a 1 ms attack (measured 0.50 dB); over the second
    /// half (the step down and the release) within 0.02 dB (measured 0.015 dB).
    func testStepGainFollowsThePerFrameModel() {
        let sampleRate = 48000.0
        let segment = Dynamics.frames(0.3, sampleRate)
        let tone = Dynamics.sine(3 * segment, frequency: 1000, sampleRate: sampleRate)
        let input = tone.indices.map { tone[$0] * ($0 / segment == 1 ? 0.5 : 0.01) }
        for (attack, bound) in [(Float(10), 0.15), (1, 0.6)] {
            for blockSize in [7, 64] {
                let worst = worstDeviationDB(input, reference(attackMs: attack), sampleRate: sampleRate, blockSize: blockSize)
                XCTAssertLessThan(worst.all, bound, "attack \(attack) ms, block \(blockSize)")
                XCTAssertLessThan(worst.secondHalf, 0.02, "release, attack \(attack) ms, block \(blockSize)")
            }
        }
    }

    /// Without lookahead (the SIMD path for whole sub-blocks) the output does not depend on the block size either.
    func testBlockSizesGiveTheSameOutputWithoutLookahead() {
        let frames = 5000
        let input = [zip(Dynamics.noise(frames, amplitude: 0.8), Dynamics.sine(frames, frequency: 220)).map { $0 * $1 },
                     Dynamics.sine(frames, frequency: 3000, amplitude: 0.3)]
        var settings = reference(attackMs: 1, releaseMs: 30)
        settings.makeupDB = 3; settings.stereoLink = 0.7
        Dynamics.assertBlockSizeInvariance(input) { CompressorKernel(settings: settings, channels: $0, sampleRate: 48000) }
    }
}
