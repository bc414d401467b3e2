// The loudness meter's two savings against plain libebur128: true peak only where it can change the reading, and momentary and short-term from 100 ms windows. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CEBUR128
import FoldbackAnalysis
import Foundation
import XCTest

final class LoudnessShortcutTests: XCTestCase {
    /// Plain libebur128, fed everything: the reference.
    private final class Reference {
        let state: UnsafeMutablePointer<ebur128_state>
        let channels: Int

        init(channels: Int, sampleRate: Int, mode: UInt32) throws {
            state = try XCTUnwrap(ebur128_init(UInt32(channels), UInt(sampleRate), Int32(mode)))
            self.channels = channels
        }

        deinit {
            var pointer: UnsafeMutablePointer<ebur128_state>? = state
            ebur128_destroy(&pointer)
        }

        /// The true peak (linear, all channels) of one call.
        func add(_ samples: UnsafePointer<Float>, frames: Int) -> Double {
            _ = ebur128_add_frames_float(state, samples, frames)
            var peak = 0.0
            for channel in 0..<channels {
                var value = 0.0
                _ = ebur128_prev_true_peak(state, UInt32(channel), &value)
                peak = max(peak, value)
            }
            return peak
        }
    }

    /// Feeds `samples` (interleaved) to the meter and to plain libebur128 in calls of `call` frames, reading the
    /// meter after each; returns the largest difference of the two true peaks in dB (calls where both are
    /// silent excluded) and the meter's count of skipped blocks.
    private func truePeakDifference(_ samples: [Float], channels: Int = 2, sampleRate: Int = 48_000, call: Int = 2_400)
        throws -> (worst: Double, skipped: Int)
    {
        let meter = try XCTUnwrap(LoudnessMeter(channels: channels, sampleRate: sampleRate, layout: .stereo))
        let reference = try Reference(channels: channels, sampleRate: sampleRate, mode: EBUR128_MODE_TRUE_PEAK.rawValue)
        let frames = samples.count / channels
        var worst = 0.0, highest = 0.0
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < frames {
                let count = min(call, frames - start)
                let pointer = buffer.baseAddress! + start * channels
                let expected = reference.add(pointer, frames: count)
                meter.add(interleaved: pointer, frames: count)
                let reading = meter.read().truePeakDBTP
                highest = max(highest, expected)
                if expected > 0 { worst = max(worst, abs(reading - 20 * log10(expected))) }
                start += count
            }
        }
        let maximum = meter.read().maximumTruePeakDBTP
        if highest > 0 { worst = max(worst, abs(maximum - 20 * log10(highest))) }
        return (worst, meter.truePeakBlocks.skipped)
    }

    /// A sine of `peak` at `frequency` from `phase` (radians), `frames` long, on `channels` channels.
    private func sine(_ frequency: Double, peak: Double, phase: Double = 0, frames: Int, channels: Int = 2, rate: Double = 48_000) -> [Float] {
        (0..<frames).flatMap { frame in
            [Float](repeating: Float(peak * sin(2 * .pi * frequency * Double(frame) / rate + phase)), count: channels)
        }
    }

    /// The sign pattern that drives one phase of libebur128's 4× interpolator to its largest output (the sum of
    /// its |coefficients| times `level`: 1.864 × at the half-sample phase), as libebur128 designs the filter
    /// (49-tap sinc, Hann window).
    private func worstCase(level: Double, phase: Int = 2, factor: Int = 4) -> [Float] {
        let coefficients = (0..<49).compactMap { tap -> Double? in
            guard tap % factor == phase else { return nil }
            let m = Double(tap) - 24
            let sinc = abs(m) > 1e-6 ? sin(m * .pi / Double(factor)) / (m * .pi / Double(factor)) : 1
            return sinc * 0.5 * (1 - cos(2 * .pi * Double(tap) / 48))
        }
        // The newest input meets the first coefficient: oldest sample first.
        return coefficients.reversed().flatMap { [Float](repeating: Float($0 >= 0 ? level : -level), count: 2) }
    }

    /// Tech 3341's true-peak sines (cases 15 to 19: fs/4 at 0° and 45°, fs/6 at 60°, fs/8 at 67.5°, at half scale,
    /// and fs/4 at 45° at full scale) read what libebur128 fed everything reads, within 0.1 dB, every 50 ms, at
    /// 44.1, 48 and 96 kHz and in calls of 1, 7, 253, 2,400 and 5,000 frames.
    func testTech3341TruePeakCases() throws {
        let cases: [(divisor: Double, degrees: Double, peak: Double)] = [(4, 0, 0.5), (4, 45, 0.5), (6, 60, 0.5), (8, 67.5, 0.5), (4, 45, 1)]
        for rate in [44_100, 48_000, 96_000] {
            for (index, test) in cases.enumerated() {
                let samples = sine(Double(rate) / test.divisor, peak: test.peak, phase: test.degrees * .pi / 180, frames: rate, rate: Double(rate))
                for call in [1, 7, 253, 2_400, 5_000] where call > 7 || index == 1 {
                    let result = try truePeakDifference(samples, sampleRate: rate, call: call)
                    XCTAssertLessThanOrEqual(result.worst, 0.1, "case \(index + 15) at \(rate) Hz in calls of \(call)")
                }
            }
        }
    }

    /// Signals built to defeat the rule: the worst-case sign pattern (true peak 5.4 dB over its samples) and fs/4
    /// at 45° after louder low notes in the same 50 ms, a 20 kHz sine at its worst phase under a 1 kHz one, a
    /// single-sample click, and noise bursts. Every reading matches libebur128 fed everything within 0.1 dB
    /// (0.001 dB measured), and the rule does skip blocks.
    func testAdversarialSignals() throws {
        var signals: [(String, [Float])] = []
        for level in [0.3, 0.5, 0.55] {
            for phase in 1...3 {
                var mixed = sine(100, peak: 0.5, frames: 1_200)
                mixed += worstCase(level: level, phase: phase)
                mixed += sine(100, peak: 0.5, frames: 3_000)
                signals.append(("worst case at \(level), phase \(phase)", mixed))
            }
        }
        for dB in [-1.0, -2.0, -2.9, -3.0, -4.0] {
            let low = sine(200, peak: 0.5, frames: 1_000)
            let high = sine(12_000, peak: 0.5 * pow(10, dB / 20) * 2.0.squareRoot(), phase: .pi / 4, frames: 400)
            signals.append(("fs/4 at 45° \(dB) dB under a 200 Hz note", low + high + low + high))
        }
        signals.append(("20 kHz under 1 kHz", sine(1_000, peak: 0.6, frames: 2_000) + sine(20_000, peak: 0.3, phase: 0.3, frames: 3_000)))
        var click = sine(500, peak: 0.2, frames: 4_800)
        click[2 * 3_001] = 0.25
        signals.append(("click", click))
        var seed: UInt32 = 1
        let bursts = (0..<48_000).flatMap { frame -> [Float] in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let envelope = Float(pow(10, -Double((frame / 480) % 10) * 1.5 / 20))
            let value = envelope * (Float(Int32(bitPattern: seed) >> 8) / Float(1 << 23)) * 0.7
            return [value, value * 0.5]
        }
        signals.append(("noise bursts", bursts))
        // The pattern reaches the bound the rule assumes (so no smaller margin is safe).
        let reference = try Reference(channels: 2, sampleRate: 48_000, mode: EBUR128_MODE_TRUE_PEAK.rawValue)
        let pattern = worstCase(level: 0.5) + [Float](repeating: 0, count: 64)
        let patternPeak = pattern.withUnsafeBufferPointer { reference.add($0.baseAddress!, frames: pattern.count / 2) }
        XCTAssertEqual(patternPeak / 0.5, 1.8642, accuracy: 0.001, "libebur128's largest gain over the sample peak")
        var skipped = 0
        for (name, samples) in signals {
            for call in [253, 2_400] {
                let result = try truePeakDifference(samples, call: call)
                XCTAssertLessThanOrEqual(result.worst, 0.1, "\(name) in calls of \(call)")
                XCTAssertLessThanOrEqual(result.worst, 0.001, "\(name) in calls of \(call): the rule should be exact")
                skipped += result.skipped
            }
        }
        XCTAssertGreaterThan(skipped, 100, "blocks far under the reading's true peak are skipped")
    }

    /// Momentary and short-term, assembled from 100 ms windows, equal libebur128's own within 0.001 LU at every
    /// 100 ms on a signal whose level changes (noise in steps, then silence), at 44.1 and 48 kHz.
    func testMomentaryAndShortTermMatchLibebur128() throws {
        for rate in [44_100, 48_000] {
            let meter = try XCTUnwrap(LoudnessMeter(channels: 2, sampleRate: rate, layout: .stereo, measuresTruePeak: false))
            let reference = try Reference(channels: 2, sampleRate: rate, mode: EBUR128_MODE_S.rawValue)
            let window = rate / 10
            var seed: UInt32 = 7
            var worst = 0.0
            var block = [Float](repeating: 0, count: window * 2)
            for step in 0..<80 {
                let gain = step >= 70 ? 0 : Float(pow(10, -Double(step % 7) * 4 / 20))
                for index in block.indices {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    block[index] = gain * Float(Int32(bitPattern: seed) >> 8) / Float(1 << 23) * 0.5
                }
                block.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress!, frames: window) }
                block.withUnsafeBufferPointer { _ = reference.add($0.baseAddress!, frames: window) }
                var momentary = 0.0, shortTerm = 0.0
                _ = ebur128_loudness_momentary(reference.state, &momentary)
                _ = ebur128_loudness_shortterm(reference.state, &shortTerm)
                let reading = meter.read()
                for (mine, theirs) in [(reading.momentaryLUFS, momentary), (reading.shortTermLUFS, shortTerm)] {
                    if theirs.isFinite, theirs > -200 { worst = max(worst, abs(mine - theirs)) } else { XCTAssertEqual(mine, -.infinity) }
                }
            }
            XCTAssertLessThanOrEqual(worst, 0.001, "at \(rate) Hz")
        }
    }
}
