// CompressorKernel static behaviour: the measured curve against theory (knee, ratios, expander, RMS), auto makeup, stereo link, published reduction.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class CompressorCurveTests: XCTestCase {
    /// The textbook static curve (Giannoulis, Massberg & Reiss 2012), written out independently of the kernel:
    /// output gain in dB for a detector level `x` in dBFS.
    static func theoreticalGainDB(_ x: Float, _ s: CompressorSettings) -> Float {
        let (t, r, w) = (s.thresholdDB, s.ratio, s.kneeDB)
        var gain: Float = 0
        if 2 * (x - t) > w {
            gain = t + (x - t) / r - x
        } else if 2 * abs(x - t) <= w && w > 0 {
            gain = (1 / r - 1) * (x - t + w / 2) * (x - t + w / 2) / (2 * w)
        }
        let (te, re) = (s.expanderThresholdDB, s.expanderRatio)
        if 2 * (x - te) < -w {
            gain += (re - 1) * (x - te)
        } else if 2 * abs(x - te) <= w && w > 0 {
            gain -= (re - 1) * (x - te - w / 2) * (x - te - w / 2) / (2 * w)
        }
        return gain
    }

    private func settings(_ configure: (inout CompressorSettings) -> Void) -> CompressorSettings {
        var settings = CompressorSettings()
        configure(&settings)
        return settings
    }

    /// Steady 1 kHz sines at 48 kHz (samples land on the crest) at −60…0 dBFS in 2 dB steps; the gain is the
    /// output crest over the input crest in the last 50 ms. Within 0.2 dB of the theoretical curve.
    private func assertStaticCurve(
        _ settings: CompressorSettings, seconds: Double, levelOffset: Float = 0, file: StaticString = #filePath, line: UInt = #line
    ) {
        let sampleRate = 48000.0
        let frames = Dynamics.frames(seconds, sampleRate)
        let tail = Dynamics.frames(0.05, sampleRate)
        var worst: (error: Float, level: Float) = (0, 0)
        for level in stride(from: Float(-60), through: 0, by: 2) {
            var kernel = CompressorKernel(settings: settings, channels: 1, sampleRate: sampleRate)
            defer { kernel.deallocate() }
            let amplitude = powf(10, level / 20)
            let output = Dynamics.render(&kernel, [Dynamics.sine(frames, frequency: 1000, amplitude: amplitude, sampleRate: sampleRate)], blockSize: 512)[0]
            let measured = Dynamics.dB(Dynamics.peak(output.suffix(tail))) - level
            let expected = Self.theoreticalGainDB(level + levelOffset, settings)
            if abs(measured - expected) >= abs(worst.error) { worst = (measured - expected, level) }
        }
        XCTAssertLessThan(abs(worst.error), 0.2, "worst deviation \(worst.error) dB at \(worst.level) dBFS for \(settings)", file: file, line: line)
    }

    func testPeakCurveMatchesTheoryForRatiosAndKnees() {
        for ratio: Float in [2, 4, 10] {
            for knee: Float in [0, 6] {
                assertStaticCurve(settings {
                    $0.thresholdDB = -30; $0.ratio = ratio; $0.kneeDB = knee; $0.attackMs = 0.1; $0.releaseMs = 300
                }, seconds: 0.25)
            }
        }
    }

    func testExpanderBelowItsThresholdMatchesTheory() {
        for knee: Float in [0, 6] {
            for ratio: Float in [2, 4] {
                assertStaticCurve(settings {
                    $0.thresholdDB = -12; $0.ratio = 4; $0.kneeDB = knee; $0.attackMs = 0.1; $0.releaseMs = 100
                    $0.expanderThresholdDB = -36; $0.expanderRatio = ratio
                }, seconds: 1)
            }
        }
    }

    /// The RMS detector reads a sine 3.01 dB below its crest.
    func testRMSCurveMatchesTheoryAtTheSineRMSLevel() {
        assertStaticCurve(settings {
            $0.thresholdDB = -30; $0.ratio = 4; $0.kneeDB = 6; $0.attackMs = 0.1; $0.releaseMs = 300; $0.detection = .rms
        }, seconds: 0.3, levelOffset: -3.0103)
    }

    func testKneeIsQuadraticAndContinuous() {
        let s = settings { $0.thresholdDB = -20; $0.ratio = 4; $0.kneeDB = 10 }
        let gainAt = { (level: Float) -> Float in
            var kernel = CompressorKernel(settings: self.settings { $0 = s; $0.attackMs = 0.1 }, channels: 1, sampleRate: 48000)
            defer { kernel.deallocate() }
            let output = Dynamics.render(&kernel, [[Float](repeating: powf(10, level / 20), count: 4800)], blockSize: 4800)[0]
            return Dynamics.dB(output.last!) - level
        }
        // DC gives the exact static curve: 0 at the knee's start, (1/R − 1)·W/8 at the threshold, straight line past the knee.
        XCTAssertEqual(gainAt(-25.5), 0, accuracy: 1e-4)
        XCTAssertEqual(gainAt(-20), -0.75 * 10 / 8, accuracy: 1e-3)
        XCTAssertEqual(gainAt(-15), -0.75 * 5, accuracy: 1e-3)
        XCTAssertEqual(gainAt(0), -15, accuracy: 1e-3)
    }

    /// Auto makeup is −G(0 dBFS): the compression a 0 dBFS level gets, so full scale stays at full scale.
    func testAutoMakeupIsTheCompressionOfFullScale() {
        let hard = settings { $0.thresholdDB = -24; $0.ratio = 3; $0.kneeDB = 0; $0.isAutoMakeupEnabled = true; $0.attackMs = 1 }
        XCTAssertEqual(CompressorKernel.autoMakeupDB(for: hard), 16, accuracy: 1e-4, "24 dB over, 3:1 → 16 dB")
        let soft = settings { $0.thresholdDB = -2; $0.ratio = 4; $0.kneeDB = 6 }
        XCTAssertEqual(CompressorKernel.autoMakeupDB(for: soft), 0.75 * 25 / 12, accuracy: 1e-4, "0 dBFS inside the knee")

        for (level, expectedGain) in [(Float(0), Float(0)), (-40, 16), (-12, 16 - 8)] {
            var kernel = CompressorKernel(settings: hard, channels: 1, sampleRate: 48000)
            defer { kernel.deallocate() }
            let output = Dynamics.render(&kernel, [[Float](repeating: powf(10, level / 20), count: 9600)], blockSize: 1024)[0]
            XCTAssertEqual(Dynamics.dB(output.last!) - level, expectedGain, accuracy: 0.01, "\(level) dBFS in")
        }
    }

    /// A loud left channel (0 dBFS) and a quiet right one in phase (−30 dBFS, below the knee): fully linked, the right
    /// gets the left's gain (within 0.001 dB); unlinked, the right passes untouched; half-linked, its level
    /// reads halfway (−15 dBFS) and it gets that level's static gain (within 0.2 dB).
    func testStereoLinkDrivesBothChannelsFromTheLouder() {
        let sampleRate = 48000.0
        let frames = Dynamics.frames(0.3, sampleRate)
        let left = Dynamics.sine(frames, frequency: 1000, sampleRate: sampleRate)
        let right = Dynamics.sine(frames, frequency: 1000, amplitude: powf(10, -30 / 20), sampleRate: sampleRate)
        let base = settings { $0.thresholdDB = -20; $0.ratio = 4; $0.kneeDB = 6; $0.attackMs = 0.1; $0.releaseMs = 300 }
        for link: Float in [1, 0, 0.5] {
            var kernel = CompressorKernel(settings: settings { $0 = base; $0.stereoLink = link }, channels: 2, sampleRate: sampleRate)
            defer { kernel.deallocate() }
            let output = Dynamics.render(&kernel, [left, right], blockSize: 253)
            let tail = (frames - 2400)..<frames
            let leftGain = Dynamics.dB(Dynamics.peak(output[0][tail]))
            let rightGain = Dynamics.dB(Dynamics.peak(output[1][tail])) + 30
            XCTAssertEqual(leftGain, Self.theoreticalGainDB(0, base), accuracy: 0.2, "link \(link): left follows its own level")
            switch link {
            case 1:
                for frame in tail where abs(left[frame]) > 1e-2 && abs(right[frame]) > 1e-3 {
                    let gainLeft = Dynamics.dB(abs(output[0][frame] / left[frame]))
                    let gainRight = Dynamics.dB(abs(output[1][frame] / right[frame]))
                    XCTAssertEqual(gainRight, gainLeft, accuracy: 1e-3, "frame \(frame): same reduction on both channels")
                }
                XCTAssertLessThan(rightGain, -9, "the quiet right channel is compressed by the left")
            case 0:
                XCTAssertEqual(output[1], right, "unlinked, the right channel is below the knee and passes bit-exact")
            default:
                XCTAssertEqual(rightGain, Self.theoreticalGainDB(-15, base), accuracy: 0.2, "half-linked: level read at −15 dBFS")
            }
        }
    }

    /// The reductions published for meters: 15 dB of compression (±0.01) and no expansion for 0 dBFS DC at
    /// −20 dB, 4:1, hard knee; exactly 0 of both after a long silence (the expander is off).
    func testGainReductionIsPublished() {
        var kernel = CompressorKernel(settings: settings { $0.thresholdDB = -20; $0.ratio = 4; $0.kneeDB = 0 }, channels: 2, sampleRate: 44100)
        defer { kernel.deallocate() }
        XCTAssertEqual(kernel.compressionDB, 0)
        let loud = [Float](repeating: 1, count: 22050)
        _ = Dynamics.render(&kernel, [loud, loud.map { -$0 }], blockSize: 1024)
        XCTAssertEqual(kernel.compressionDB, 15, accuracy: 0.01)
        XCTAssertEqual(kernel.expansionDB, 0)
        let quiet = [Float](repeating: 0, count: 176_400)
        _ = Dynamics.render(&kernel, [quiet, quiet], blockSize: 1024)
        XCTAssertEqual(kernel.compressionDB, 0, "released fully after 4 s of silence (40 release time constants)")
        XCTAssertEqual(kernel.expansionDB, 0)
    }

    /// Compression and expansion are reported apart: with the compressor at −20 dB 4:1 and the expander at
    /// −50 dB 3:1 (hard knees), DC at −10 dBFS reads 7.5 dB of compression and no expansion; DC at −60 dBFS
    /// reads 20 dB of expansion and no compression; silence reads the expander's full 80 dB range (a closed
    /// gate) and no compression. Within 0.1 dB, at block sizes 1, 7 and 253.
    func testCompressionAndExpansionAreReportedApart() {
        let gated = settings {
            $0.thresholdDB = -20; $0.ratio = 4; $0.kneeDB = 0; $0.attackMs = 1; $0.releaseMs = 20
            $0.expanderThresholdDB = -50; $0.expanderRatio = 3
        }
        let cases: [(level: Float, compression: Float, expansion: Float)] = [
            (-10, 7.5, 0), (-60, 0, 20), (-.infinity, 0, CompressorKernel.expansionRangeDB),
        ]
        for blockSize in [1, 7, 253] {
            for (level, compression, expansion) in cases {
                var kernel = CompressorKernel(settings: gated, channels: 1, sampleRate: 48000)
                defer { kernel.deallocate() }
                let steady = [Float](repeating: level.isFinite ? powf(10, level / 20) : 0, count: 48000)
                _ = Dynamics.render(&kernel, [steady], blockSize: blockSize)
                let label = "DC at \(level) dBFS, block \(blockSize)"
                XCTAssertEqual(kernel.compressionDB, compression, accuracy: 0.1, "compression, \(label)")
                XCTAssertEqual(kernel.expansionDB, expansion, accuracy: 0.1, "expansion, \(label)")
            }
        }
    }
}
