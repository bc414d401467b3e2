// CompressorKernel in time: attack/release time constants, lookahead latency, parameter sweeps, block sizes, silence, NaN recovery.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class CompressorBallisticsTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]
    private let inverseE = Float(exp(-1.0))

    private func settings(_ configure: (inout CompressorSettings) -> Void) -> CompressorSettings {
        var settings = CompressorSettings()
        configure(&settings)
        return settings
    }

    /// Gain reduction in dB per frame of a run over DC (output over input).
    private func reductionDB(_ output: [Float], _ input: [Float]) -> [Float] {
        zip(output, input).map { -Dynamics.dB($0 / $1) }
    }

    /// Frames from `start` until `reduction` first reaches `level` in the direction given (rising or falling).
    private func framesUntil(_ reduction: [Float], from start: Int, reaches level: Float, rising: Bool) -> Int {
        let index = reduction[start...].firstIndex { rising ? $0 >= level : $0 <= level }!
        return index - start + 1
    }

    /// DC steps −20 → 0 → −20 dBFS at −20 dB, 4:1, hard knee (target 15 dB): the reduction covers 1 − 1/e of
    /// the step within 10 % of the attack time, and falls to 1/e of it within 10 % of the release time.
    func testAttackAndReleaseTimeConstantsFromStepResponses() {
        for sampleRate in sampleRates {
            for (attack, release) in [(Float(10), Float(100)), (1, 500)] {
                var kernel = CompressorKernel(settings: settings {
                    $0.thresholdDB = -20; $0.ratio = 4; $0.kneeDB = 0; $0.attackMs = attack; $0.releaseMs = release
                }, channels: 1, sampleRate: sampleRate)
                defer { kernel.deallocate() }
                let (quiet, loud) = (Dynamics.frames(0.1, sampleRate), Dynamics.frames(Double(attack) * 0.02, sampleRate))
                let tail = Dynamics.frames(Double(release) * 0.008, sampleRate)
                let input = [Float](repeating: 0.1, count: quiet) + [Float](repeating: 1, count: loud) + [Float](repeating: 0.1, count: tail)
                let reduction = reductionDB(Dynamics.render(&kernel, [input], blockSize: 253)[0], input)
                XCTAssertEqual(reduction[quiet - 1], 0, accuracy: 1e-4, "at the threshold: no reduction")
                let peak = reduction[quiet + loud - 1]
                XCTAssertEqual(peak, 15, accuracy: 0.01, "settled after 20 attack times")
                let attackFrames = framesUntil(reduction, from: quiet, reaches: peak * (1 - inverseE), rising: true)
                XCTAssertEqual(Double(attackFrames) / sampleRate * 1000, Double(attack), accuracy: 0.1 * Double(attack), "\(sampleRate) Hz attack")
                let releaseFrames = framesUntil(reduction, from: quiet + loud, reaches: peak * inverseE, rising: false)
                XCTAssertEqual(Double(releaseFrames) / sampleRate * 1000, Double(release), accuracy: 0.1 * Double(release), "\(sampleRate) Hz release")
            }
        }
    }

    /// The expander opens with the attack time and, once its peak hold has passed, closes with the release
    /// time (−60 dBFS at a −40 dB, 2:1 expander is 20 dB down; at −34 dBFS it is open). Within 10 %.
    func testExpanderOpensWithTheAttackAndClosesWithTheRelease() {
        let sampleRate = 48000.0
        var kernel = CompressorKernel(settings: settings {
            $0.kneeDB = 0; $0.expanderThresholdDB = -40; $0.expanderRatio = 2; $0.attackMs = 5; $0.releaseMs = 50
        }, channels: 1, sampleRate: sampleRate)
        defer { kernel.deallocate() }
        let segment = Dynamics.frames(1, sampleRate)
        let input = [Float](repeating: 1e-3, count: segment) + [Float](repeating: 2e-2, count: segment) + [Float](repeating: 1e-3, count: segment)
        let reduction = reductionDB(Dynamics.render(&kernel, [input], blockSize: 1024)[0], input)
        XCTAssertEqual(reduction[segment - 1], 20, accuracy: 0.01)
        let opening = framesUntil(reduction, from: segment, reaches: 20 * inverseE, rising: false)
        XCTAssertEqual(Double(opening) / sampleRate * 1000, 5, accuracy: 0.5, "opens with the attack time constant")
        let hold = Dynamics.frames(CompressorKernel.expanderHoldTime, sampleRate)
        let closingStart = reduction[(2 * segment)...].firstIndex { $0 > 0 }!
        let holdEnds = (2 * segment + hold - 1)...(2 * segment + 2 * hold - 1)
        XCTAssertTrue(holdEnds.contains(closingStart), "closes after one to two hold times, not \(closingStart - 2 * segment) frames")
        let closing = framesUntil(reduction, from: closingStart, reaches: 20 * (1 - inverseE), rising: true)
        XCTAssertEqual(Double(closing) / sampleRate * 1000, 50, accuracy: 5, "closes with the release time constant")
    }

    /// Lookahead of 5 ms delays the audio by exactly round(5 ms · fs) frames, the latency reported; below
    /// the threshold the delayed signal is bit-exact; a loud step is already reduced when it comes out.
    func testLookaheadLatencyIsExactAndReported() {
        for sampleRate in sampleRates {
            let lookahead = Int((0.005 * sampleRate).rounded())
            var kernel = CompressorKernel(settings: settings {
                $0.thresholdDB = -20; $0.ratio = 4; $0.kneeDB = 0; $0.lookaheadMs = 5
            }, channels: 2, sampleRate: sampleRate)
            defer { kernel.deallocate() }
            XCTAssertEqual(kernel.latencyFrames, lookahead, "\(sampleRate) Hz")
            let quiet = Dynamics.noise(4000, amplitude: 0.05)
            let output = Dynamics.render(&kernel, [quiet, quiet.reversed()], blockSize: 7)
            XCTAssertEqual(output[0], [Float](repeating: 0, count: lookahead) + quiet.dropLast(lookahead), "\(sampleRate) Hz: delayed, bit-exact")
            XCTAssertEqual(output[1], [Float](repeating: 0, count: lookahead) + quiet.reversed().dropLast(lookahead))

            kernel.reset()
            let step = [Float](repeating: 0.1, count: 1000) + [Float](repeating: 1, count: 2000)
            let stepped = Dynamics.render(&kernel, [step, step], blockSize: 64)[0]
            let attack = Float(exp(-1 / (0.010 * sampleRate)))   // the default 10 ms attack's one-pole
            let expected = 15 * (1 - pow(attack, Float(lookahead + 1)))
            XCTAssertEqual(-Dynamics.dB(stepped[1000 + lookahead]), expected, accuracy: 0.01,
                           "\(sampleRate) Hz: the loud step leaves already \(expected) dB down")
            XCTAssertLessThan(stepped[999 + lookahead], 0.1, "the gain falls before the step comes out")
        }
    }

    /// 20 ms sweeps (blocks of 64 at 48 kHz, one update per block) of threshold −40 → 0 dB with auto makeup,
    /// ratio 1 → 20, knee 0 → 24 dB, makeup −24 → +24 dB, expander threshold −96 → 0 dB, and detection
    /// switched from peak to RMS, on −6 dBFS DC with the default 10 ms / 100 ms: the output moves by at most
    /// 0.1 dB from one sample to the next (measured worst: 0.06 dB, the makeup sweep; unsmoothed, the
    /// makeup would jump 3.2 dB at each block).
    func testFastParameterSweepsDoNotStep() {
        let sampleRate = 48000.0
        let sweepFrames = Dynamics.frames(0.02, sampleRate)
        let input = [Float](repeating: 0.5, count: Dynamics.frames(0.3, sampleRate))
        typealias Sweep = (name: String, apply: (inout CompressorSettings, Float) -> Void)
        let sweeps: [Sweep] = [
            ("threshold", { $0.thresholdDB = -40 + 40 * $1; $0.isAutoMakeupEnabled = true }),
            ("ratio", { $0.thresholdDB = -30; $0.ratio = 1 + 19 * $1 }),
            ("knee", { $0.thresholdDB = -10; $0.kneeDB = 24 * $1 }),
            ("makeup", { $0.makeupDB = -24 + 48 * $1 }),
            ("expander", { $0.expanderRatio = 4; $0.expanderThresholdDB = -96 + 96 * $1 }),
            ("detection", { $0.thresholdDB = -30; $0.detection = $1 < 0.5 ? .peak : .rms }),
        ]
        for sweep in sweeps {
            var initial = CompressorSettings()
            sweep.apply(&initial, 0)
            var kernel = CompressorKernel(settings: initial, channels: 1, sampleRate: sampleRate)
            defer { kernel.deallocate() }
            _ = Dynamics.render(&kernel, [input], blockSize: 1024)   // settle
            let output = Dynamics.render(&kernel, [input], blockSize: 64) { kernel, start in
                var settings = kernel.settings
                sweep.apply(&settings, min(Float(start) / Float(sweepFrames), 1))
                kernel.update(settings)
            }[0]
            let steps = zip(output.dropFirst(), output).map { abs(Dynamics.dB($0.0) - Dynamics.dB($0.1)) }
            XCTAssertLessThan(steps.max()!, 0.1, "\(sweep.name) sweep")
        }
    }

    /// Blocks of 1, 7, 253 and 1024 frames, in place or not, give the same output (within 1e-6) for stereo noise
    /// and sines through lookahead, RMS detection, half link and the expander; mono too.
    func testBlockSizesAndAliasingGiveTheSameOutput() {
        let sampleRate = 44100.0
        let frames = 6000
        let input = [
            zip(Dynamics.noise(frames, amplitude: 0.8), Dynamics.sine(frames, frequency: 220, sampleRate: sampleRate)).map { $0 * $1 },
            Dynamics.sine(frames, frequency: 3000, amplitude: 0.3, sampleRate: sampleRate),
        ]
        let chosen = settings {
            $0.thresholdDB = -24; $0.ratio = 6; $0.attackMs = 1; $0.releaseMs = 30; $0.lookaheadMs = 3; $0.detection = .rms
            $0.stereoLink = 0.5; $0.expanderThresholdDB = -30; $0.expanderRatio = 3; $0.makeupDB = 4
        }
        Dynamics.assertBlockSizeInvariance(input) { CompressorKernel(settings: chosen, channels: $0, sampleRate: sampleRate) }
    }

    func testSilenceInGivesExactSilenceOut() {
        var kernel = CompressorKernel(settings: settings {
            $0.makeupDB = 12; $0.isAutoMakeupEnabled = true; $0.expanderRatio = 4; $0.lookaheadMs = 2; $0.detection = .rms
        }, channels: 2, sampleRate: 96000)
        defer { kernel.deallocate() }
        let silence = [Float](repeating: 0, count: 20000)
        let output = Dynamics.render(&kernel, [silence, silence], blockSize: 253)
        XCTAssertTrue(output.allSatisfy { $0.allSatisfy { $0 == 0 } })
    }

    /// A NaN sample does not poison the detector (finite output once it has left the lookahead line), and
    /// after `reset` the output is finite from the first frame.
    func testNaNInputRecoversAndResetGivesFiniteOutput() {
        for detection in CompressorSettings.Detection.allCases {
            var kernel = CompressorKernel(settings: settings {
                $0.lookaheadMs = 1; $0.detection = detection; $0.expanderRatio = 2
            }, channels: 2, sampleRate: 48000)
            defer { kernel.deallocate() }
            var poisoned = Dynamics.sine(4800)
            poisoned[1000] = .nan
            let output = Dynamics.render(&kernel, [poisoned, Dynamics.sine(4800)], blockSize: 256)
            XCTAssertTrue(output[0][(1000 + kernel.latencyFrames + 1)...].allSatisfy(\.isFinite), "\(detection): recovers by itself")
            kernel.reset()
            let clean = Dynamics.render(&kernel, [Dynamics.sine(4800), Dynamics.sine(4800)], blockSize: 256)
            XCTAssertTrue(clean.allSatisfy { $0.allSatisfy(\.isFinite) }, "\(detection): finite after reset")
        }
    }
}
