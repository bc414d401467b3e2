// LimiterKernel: the ceiling holds on overdriven signals, unlimited signals pass bit-exact and delayed, release timing, sweeps, blocks, silence, NaN.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class LimiterKernelTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    /// 20 dB overdrive test signals (for a −1 dBFS ceiling): sines, noise, square waves, a lone click, and a
    /// full-scale click; stereo pairs mix them.
    private func overdriven(frames: Int, sampleRate: Double) -> [(name: String, channels: [[Float]])] {
        let drive: Float = 10
        var click = [Float](repeating: 0, count: frames)
        click[frames / 3] = drive
        var fullScaleClick = [Float](repeating: 0, count: frames)
        fullScaleClick[frames / 2] = -1
        return [
            ("sine 997 Hz", [Dynamics.sine(frames, amplitude: drive, sampleRate: sampleRate)]),
            ("sine 60 Hz", [Dynamics.sine(frames, frequency: 60, amplitude: drive, sampleRate: sampleRate)]),
            ("sine 15 kHz", [Dynamics.sine(frames, frequency: 15000, amplitude: drive, sampleRate: sampleRate)]),
            ("noise", [Dynamics.noise(frames, amplitude: drive)]),
            ("square 100 Hz", [Dynamics.square(frames, frequency: 100, amplitude: drive, sampleRate: sampleRate)]),
            ("square 3 kHz", [Dynamics.square(frames, frequency: 3000, amplitude: drive, sampleRate: sampleRate)]),
            ("click +20 dB", [click]),
            ("full-scale click", [fullScaleClick]),
            ("stereo sine + noise", [Dynamics.sine(frames, amplitude: drive, sampleRate: sampleRate), Dynamics.noise(frames, amplitude: drive, seed: 7)]),
            ("stereo click + silence", [click, [Float](repeating: 0, count: frames)]),
        ]
    }

    /// No output sample above the ceiling (exact comparison with the linear ceiling), for every test signal,
    /// sample rate, ceiling, lookahead and release, in blocks of 253.
    func testSamplePeakNeverExceedsTheCeiling() {
        for sampleRate in sampleRates {
            let frames = Dynamics.frames(0.25, sampleRate)
            for (name, signal) in overdriven(frames: frames, sampleRate: sampleRate) {
                for (ceilingDB, lookahead, release) in [(Float(-1), Float(1.5), Float(50)), (-6, 0.5, 5), (0, 2, 500), (-1, 0, 50)] {
                    var limiter = LimiterKernel(
                        sampleRate: sampleRate, channels: signal.count, ceilingDB: ceilingDB, lookaheadMs: lookahead, releaseMs: release)
                    defer { limiter.deallocate() }
                    let ceiling = Decibels.linearGain(fromDecibels: ceilingDB)
                    let output = Dynamics.render(&limiter, signal, blockSize: 253)
                    let peak = output.map(Dynamics.peak).max()!
                    XCTAssertLessThanOrEqual(peak, ceiling, "\(name) at \(sampleRate) Hz, ceiling \(ceilingDB) dB, lookahead \(lookahead) ms")
                    XCTAssertGreaterThan(peak, ceiling * 0.9, "\(name): limited to the ceiling, not far below")
                }
            }
        }
    }

    /// The default 1.5 ms lookahead is round(1.5 ms · fs) frames; a signal that never exceeds the ceiling
    /// (−1.01 dBFS sine plus noise) comes out bit-exact, delayed by exactly that, with 0 dB reduction.
    func testUnlimitedSignalPassesBitExactDelayedByTheLatency() {
        for sampleRate in sampleRates {
            var limiter = LimiterKernel(sampleRate: sampleRate, channels: 2)
            defer { limiter.deallocate() }
            let latency = Int((0.0015 * sampleRate).rounded())
            XCTAssertEqual(limiter.latencyFrames, latency, "\(sampleRate) Hz")
            let ceiling = Decibels.linearGain(fromDecibels: -1)
            let sine = Dynamics.sine(10000, amplitude: ceiling * 0.999, sampleRate: sampleRate)
            let mixed = zip(Dynamics.sine(10000, frequency: 50, amplitude: 0.5, sampleRate: sampleRate), Dynamics.noise(10000, amplitude: 0.39))
                .map { $0 + $1 }
            XCTAssertLessThanOrEqual(Dynamics.peak(mixed), ceiling)
            for blockSize in [1, 7, 253, 1024] {
                limiter.reset()
                let output = Dynamics.render(&limiter, [sine, mixed], blockSize: blockSize)
                let silence = [Float](repeating: 0, count: latency)
                XCTAssertEqual(output[0], silence + sine.dropLast(latency), "\(sampleRate) Hz block \(blockSize)")
                XCTAssertEqual(output[1], silence + mixed.dropLast(latency), "\(sampleRate) Hz block \(blockSize)")
                XCTAssertEqual(limiter.gainReductionDB, 0)
            }
        }
    }

    /// DC at +12 dBFS for 50 ms, then −20 dBFS: the gain sits at ceiling/4 (reduction published, ±0.01 dB), then
    /// recovers exponentially: 1 − gain falls to 1/e of its depth within 10 % of the release time, and
    /// reaches exactly 1 (bit-exact output) after the release has finished.
    func testReleaseRecoversWithItsTimeConstant() {
        for sampleRate in sampleRates {
            for release: Float in [50, 200] {
                var limiter = LimiterKernel(sampleRate: sampleRate, channels: 1, releaseMs: release)
                defer { limiter.deallocate() }
                let loud = Dynamics.frames(0.05, sampleRate)
                let quiet = Dynamics.frames(Double(release) * 0.02, sampleRate)
                let input = [Float](repeating: 4, count: loud) + [Float](repeating: 0.1, count: quiet)
                let output = Dynamics.render(&limiter, [input], blockSize: 256)[0]
                let latency = limiter.latencyFrames
                let gain = (latency..<input.count).map { output[$0] / input[$0 - latency] }
                let ceiling = Decibels.linearGain(fromDecibels: -1)
                let held = gain[loud - 1]
                XCTAssertEqual(held, ceiling / 4, accuracy: 1e-5, "held at the ceiling over the burst")
                let start = gain.indices.first { $0 >= loud - 1 && gain[$0] > held }!
                let target = 1 - (1 - held) * Float(exp(-1.0))
                let crossing = gain[start...].firstIndex { $0 >= target }!
                let measured = Double(crossing - start + 1) / sampleRate * 1000
                XCTAssertEqual(measured, Double(release), accuracy: 0.1 * Double(release), "\(sampleRate) Hz, \(release) ms")
                XCTAssertEqual(gain.last, 1, "fully recovered after 20 release times")
                XCTAssertEqual(limiter.gainReductionDB, 0)
            }
            var limiter = LimiterKernel(sampleRate: sampleRate, channels: 1)
            defer { limiter.deallocate() }
            _ = Dynamics.render(&limiter, [[Float](repeating: 4, count: 4096)], blockSize: 4096)
            XCTAssertEqual(limiter.gainReductionDB, Dynamics.dB(4) + 1, accuracy: 0.01, "reduction of the last block")
        }
    }

    /// Sweeps over 20 ms (blocks of 64 at 48 kHz) of the ceiling 0 → −20 → 0 dB and the release 500 → 1 ms
    /// on a full-scale 997 Hz sine: no output step exceeds the sine's own largest step (0.130) by more than
    /// 0.005 (the ceiling glides over the lookahead window instead of clipping); after the sweep the peak is
    /// within the final ceiling.
    func testFastParameterSweepsDoNotClick() {
        let sampleRate = 48000.0
        let sweepFrames = Dynamics.frames(0.02, sampleRate)
        let input = Dynamics.sine(Dynamics.frames(0.2, sampleRate), sampleRate: sampleRate)
        let ownStep = Dynamics.largestStep(input)
        typealias Sweep = (name: String, apply: (inout LimiterKernel, Float) -> Void)
        let sweeps: [Sweep] = [
            ("ceiling down", { $0.update(ceilingDB: -20 * $1, releaseMs: 50) }),
            ("ceiling up", { $0.update(ceilingDB: -20 + 20 * $1, releaseMs: 50) }),
            ("release", { $0.update(ceilingDB: -6, releaseMs: 500 - 499 * $1) }),
        ]
        for sweep in sweeps {
            var limiter = LimiterKernel(sampleRate: sampleRate, channels: 1)
            defer { limiter.deallocate() }
            sweep.apply(&limiter, 0)
            limiter.reset()
            let output = Dynamics.render(&limiter, [input], blockSize: 64) { limiter, start in
                sweep.apply(&limiter, min(Float(start) / Float(sweepFrames), 1))
            }[0]
            XCTAssertLessThanOrEqual(Dynamics.largestStep(output), ownStep + 0.005, "\(sweep.name) sweep")
            let settled = output.suffix(input.count - sweepFrames - 200)
            XCTAssertLessThanOrEqual(Dynamics.peak(settled), Decibels.linearGain(fromDecibels: limiter.ceilingDB), "\(sweep.name): at the final ceiling")
        }
    }

    /// Blocks of 1, 7, 253 and 1024 frames, in place or not, give identical output (within 1e-6), mono and stereo.
    func testBlockSizesAndAliasingGiveTheSameOutput() {
        let frames = 8000
        let signal = [Dynamics.noise(frames, amplitude: 3), Dynamics.sine(frames, frequency: 440, amplitude: 2, sampleRate: 44100)]
        Dynamics.assertBlockSizeInvariance(signal) { LimiterKernel(sampleRate: 44100, channels: $0, ceilingDB: -3, releaseMs: 20) }
    }

    /// Quiet passages (under the ceiling: the whole-block at-rest path) alternating with 12 dB bursts (the
    /// per-frame path, then its release back to rest): blocks of 1, 7, 64, 253 and 1024 frames mix the two paths
    /// at different places and give the same output bit for bit, mono and stereo, at 44.1, 48 and 96 kHz.
    func testAtRestBlocksAndPerFrameBlocksGiveIdenticalOutput() {
        for sampleRate in sampleRates {
            let frames = Dynamics.frames(0.6, sampleRate)
            let quiet = Dynamics.noise(frames, amplitude: 0.3, seed: 3)
            let bursts = quiet.indices.map { index in
                (index / Int(sampleRate * 0.05)) % 3 == 1 ? quiet[index] * 4 : quiet[index]
            }
            for signal in [[bursts], [bursts, quiet]] {
                var outputs: [[[Float]]] = []
                for blockSize in [1, 7, 64, 253, 1024] {
                    var limiter = LimiterKernel(sampleRate: sampleRate, channels: signal.count, ceilingDB: -3, releaseMs: 2)
                    defer { limiter.deallocate() }
                    outputs.append(Dynamics.render(&limiter, signal, blockSize: blockSize))
                }
                XCTAssertLessThanOrEqual(outputs[0].map(Dynamics.peak).max()!, Decibels.linearGain(fromDecibels: -3))
                XCTAssertNotEqual(outputs[0][0], [Float](repeating: 0, count: limiterLatency(sampleRate)) + bursts.dropLast(limiterLatency(sampleRate)),
                                  "the bursts are limited")
                for (index, output) in outputs.enumerated().dropFirst() {
                    XCTAssertEqual(output, outputs[0], "\(sampleRate) Hz, \(signal.count) channels, block variant \(index)")
                }
            }
        }
    }

    private func limiterLatency(_ sampleRate: Double) -> Int { Int((0.0015 * sampleRate).rounded()) }

    func testSilenceInGivesExactSilenceOut() {
        var limiter = LimiterKernel(sampleRate: 48000, channels: 2, ceilingDB: -6)
        defer { limiter.deallocate() }
        let silence = [Float](repeating: 0, count: 10000)
        let output = Dynamics.render(&limiter, [silence, silence], blockSize: 253)
        XCTAssertTrue(output.allSatisfy { $0.allSatisfy { $0 == 0 } })
    }

    /// NaN and infinite input never make the output leave the ceiling or go non-finite (NaN comes out as 0);
    /// after `reset` the output is finite and unlimited again.
    func testNaNAndInfinityStayBoundedAndResetRecovers() {
        var limiter = LimiterKernel(sampleRate: 48000, channels: 2)
        defer { limiter.deallocate() }
        var poisoned = Dynamics.sine(4800, amplitude: 0.5)
        poisoned[1000] = .nan
        poisoned[2000] = .infinity
        poisoned[3000] = -.infinity
        let output = Dynamics.render(&limiter, [poisoned, Dynamics.sine(4800, amplitude: 0.5)], blockSize: 256)
        let ceiling = Decibels.linearGain(fromDecibels: -1)
        XCTAssertTrue(output.allSatisfy { $0.allSatisfy { $0.isFinite && abs($0) <= ceiling } })
        limiter.reset()
        let clean = Dynamics.sine(4800, amplitude: 0.5)
        let after = Dynamics.render(&limiter, [clean, clean], blockSize: 256)
        XCTAssertEqual(after[0], [Float](repeating: 0, count: limiter.latencyFrames) + clean.dropLast(limiter.latencyFrames))
    }
}
