// The limiter's two modes: zero latency (no delay, ceiling still exact) against lookahead, and the distortion each adds on transients.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class LimiterModeTests: XCTestCase {
    private let ceilingDB: Float = -1

    private func limiter(_ mode: LimiterMode, sampleRate: Double, channels: Int = 1) -> LimiterKernel {
        let settings = LimiterSettings(ceilingDB: ceilingDB, mode: mode)
        return LimiterKernel(sampleRate: sampleRate, channels: channels, ceilingDB: settings.ceilingDB,
                             lookaheadMs: settings.lookaheadMs, releaseMs: settings.releaseMs)
    }

    /// Zero-latency mode reports 0 frames and passes an impulse under the ceiling in the same frame, bit-exact.
    func testZeroLatencyPassesAnImpulseWithNoDelay() {
        for sampleRate in [44100.0, 48000, 96000] {
            var kernel = limiter(.zeroLatency, sampleRate: sampleRate)
            defer { kernel.deallocate() }
            XCTAssertEqual(kernel.latencyFrames, 0)
            XCTAssertEqual(LimiterSettings(mode: .zeroLatency).latencyFrames(sampleRate: sampleRate), 0)
            XCTAssertEqual(LimiterSettings(mode: .lookahead).latencyFrames(sampleRate: sampleRate), Int((0.0015 * sampleRate).rounded()))
            for blockSize in [1, 7, 253, 1024] {
                kernel.reset()
                var impulse = [Float](repeating: 0, count: 2048)
                impulse[100] = 0.8
                let output = Dynamics.render(&kernel, [impulse], blockSize: blockSize)[0]
                XCTAssertEqual(output, impulse, "\(sampleRate) Hz, blocks of \(blockSize)")
            }
        }
    }

    /// Bursts 12 dB over the ceiling (a sine switched on at its peak, a noise burst, a snare-like hit) never
    /// put one sample above the ceiling, in either mode, at three rates and four block sizes.
    func testNoSampleOfABurstTwelveDecibelsOverTheCeilingPassesIt() {
        let ceiling = Decibels.linearGain(fromDecibels: ceilingDB)
        let over = ceiling * 4  // +12 dB
        for sampleRate in [44100.0, 48000, 96000] {
            let frames = Dynamics.frames(0.2, sampleRate)
            let onset = frames / 4
            let cosine = (0..<frames).map { $0 < onset ? 0 : over * Float(cos(2 * Double.pi * 1000 * Double($0 - onset) / sampleRate)) }
            let noise = Dynamics.noise(frames, amplitude: over).enumerated().map { $0.offset < onset ? 0 : $0.element }
            let signals = [("switched-on cosine", cosine), ("noise burst", noise), ("snare-like hit", snare(frames: frames, sampleRate: sampleRate, peak: over))]
            for mode in LimiterMode.allCases {
                var kernel = limiter(mode, sampleRate: sampleRate)
                defer { kernel.deallocate() }
                for (name, signal) in signals {
                    for blockSize in [1, 7, 253, 1024] {
                        kernel.reset()
                        let output = Dynamics.render(&kernel, [signal], blockSize: blockSize)[0]
                        XCTAssertLessThanOrEqual(Dynamics.peak(output), ceiling, "\(mode) \(name) \(sampleRate) Hz blocks of \(blockSize)")
                        XCTAssertGreaterThan(Dynamics.peak(output), ceiling * 0.95, "\(mode) \(name): limited to the ceiling, not far below")
                    }
                }
            }
        }
    }

    /// The trade-off, measured at 48 kHz: the energy a limiter spreads above the hit's own band, relative to
    /// the whole output (Hann-windowed spectrum of the 171 ms from the onset), for a sung plosive (80 Hz,
    /// +12 dB) and a snare-like hit (180 + 330 Hz body, +12 dB). Lookahead ramps the gain down before the
    /// peak; zero latency drops it on the first sample over, holding the rising edge at the ceiling, so it
    /// adds more; both stay far below the program. Figures in docs/presets.md come from this test's output.
    func testDistortionAddedOnTransientsInEachMode() {
        let sampleRate = 48000.0
        let frames = 8192
        let over = Decibels.linearGain(fromDecibels: ceilingDB) * 4
        let hits = [
            ("plosive", plosive(frames: frames, sampleRate: sampleRate, peak: over), 1000.0),
            ("snare", snare(frames: frames, sampleRate: sampleRate, peak: over), 2000.0),
        ]
        for (name, signal, cutoff) in hits {
            let dry = splatterDB(signal, above: cutoff, sampleRate: sampleRate)
            var added: [LimiterMode: Double] = [:]
            for mode in LimiterMode.allCases {
                var kernel = limiter(mode, sampleRate: sampleRate)
                defer { kernel.deallocate() }
                added[mode] = splatterDB(Dynamics.render(&kernel, [signal], blockSize: 64)[0], above: cutoff, sampleRate: sampleRate)
            }
            let lookahead = added[.lookahead]!, zeroLatency = added[.zeroLatency]!
            print("limiter distortion, \(name) +12 dB: energy above \(Int(cutoff)) Hz: dry \(rounded(dry)) dB, "
                + "lookahead \(rounded(lookahead)) dB, zero latency \(rounded(zeroLatency)) dB (re. output)")
            XCTAssertLessThan(lookahead, zeroLatency, "\(name): lookahead is the cleaner mode")
            XCTAssertLessThan(zeroLatency, -20, "\(name): zero latency's added distortion stays well under the program")
        }
    }

    // MARK: Signals and measurement

    /// 80 Hz with a 2 ms attack and a 60 ms decay: a sung "p" into a close mic.
    private func plosive(frames: Int, sampleRate: Double, peak: Float) -> [Float] {
        (0..<frames).map { frame in
            let time = Double(frame) / sampleRate
            let envelope = min(time / 0.002, 1) * exp(-time / 0.060)
            return peak * Float(envelope * sin(2 * Double.pi * 80 * time))
        }
    }

    /// A 180 Hz and 330 Hz body, 0.3 ms attack, 100 ms decay, starting a quarter in.
    private func snare(frames: Int, sampleRate: Double, peak: Float) -> [Float] {
        (0..<frames).map { frame in
            let time = Double(frame) / sampleRate
            let envelope = min(time / 0.0003, 1) * exp(-time / 0.100)
            let body = 0.6 * sin(2 * Double.pi * 180 * time) + 0.4 * sin(2 * Double.pi * 330 * time + 0.5)
            return peak * Float(envelope * body)
        }
    }

    /// 10·log10 of the Hann-windowed spectral energy above `cutoff` over the whole energy.
    private func splatterDB(_ signal: [Float], above cutoff: Double, sampleRate: Double) -> Double {
        let count = signal.count
        let windowed = signal.enumerated().map { index, sample in
            sample * Float(0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(count)))
        }
        let power = EQMeasurement.magnitudeSpectrum(windowed).map { $0 * $0 }
        let first = Int((cutoff / sampleRate * Double(count)).rounded(.up))
        return 10 * log10(power[first...].reduce(0, +) / power.reduce(0, +))
    }

    private func rounded(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }
}
