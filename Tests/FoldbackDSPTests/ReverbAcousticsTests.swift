// ReverbKernel's sound, measured on impulse responses: RT60, damping, stereo decorrelation, echo density, level, predelay.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class ReverbAcousticsTests: XCTestCase {
    private typealias Measure = ReverbMeasurement

    func testBroadbandRT60MatchesTheDecayTime() {
        for sampleRate in [48000.0, 44100] {
            for decay: Float in [0.5, 1.5, 4] {
                let ir = Measure.impulseResponse(
                    ReverbParameters(decay: decay, predelay: 0, damping: 0), sampleRate: sampleRate, seconds: Double(decay) + 0.15)
                let measured = Measure.reverberationTime([ir.left, ir.right], sampleRate: sampleRate)
                // Schroeder integration, T30 fit (−5…−35 dB) × 2. Required within 10 %; measured within 0.5 %, asserted 3 %.
                XCTAssertEqual(measured, Double(decay), accuracy: 0.03 * Double(decay), "\(sampleRate) Hz, decay \(decay) s")
            }
        }
    }

    func testRT60HoldsAtEverySize() {
        for size: Float in [0, 1] {
            let ir = Measure.impulseResponse(ReverbParameters(decay: 1.5, predelay: 0, size: size, damping: 0), sampleRate: 48000, seconds: 1.65)
            let measured = Measure.reverberationTime([ir.left, ir.right], sampleRate: 48000)
            XCTAssertEqual(measured, 1.5, accuracy: 0.045, "size \(size): within 3 %")
        }
    }

    func testDampingShortensTheHighBandAndLeavesTheLowBand() {
        let sampleRate = 48000.0
        for damping: Float in [0.5, 1] {
            let ir = Measure.impulseResponse(ReverbParameters(decay: 2, predelay: 0, damping: damping), sampleRate: sampleRate, seconds: 2.15)
            let low = [ir.left, ir.right].map { Measure.lowPass($0, frequency: 200, sampleRate: sampleRate) }
            let high = [ir.left, ir.right].map { Measure.bandPass($0, frequency: 4000, q: 6, sampleRate: sampleRate) }
            let lowRT = Measure.reverberationTime(low, sampleRate: sampleRate)
            let highRT = Measure.reverberationTime(high, sampleRate: sampleRate)
            // Low band (< 200 Hz): the decay time, within 10 %. High band (4 kHz, Q 6): the design's
            // decay × (1 − 0.9 × damping), within 35 % (the band's lower edge decays more slowly).
            XCTAssertEqual(lowRT, 2, accuracy: 0.2, "damping \(damping): low band")
            let designed = 2 * (1 - 0.9 * Double(damping))
            XCTAssertEqual(highRT, designed, accuracy: 0.35 * designed, "damping \(damping): 4 kHz band")
            XCTAssertLessThan(highRT, 0.7 * lowRT, "damping \(damping): the high band decays faster")
        }
        let flat = Measure.impulseResponse(ReverbParameters(decay: 2, predelay: 0, damping: 0), sampleRate: sampleRate, seconds: 2.15)
        let flatHigh = Measure.reverberationTime([Measure.bandPass(flat.left, frequency: 4000, q: 6, sampleRate: sampleRate)], sampleRate: sampleRate)
        XCTAssertEqual(flatHigh, 2, accuracy: 0.1, "damping 0: the 4 kHz band decays like the rest (5 %)")
    }

    func testWidthDecorrelatesTheWetChannels() {
        for sampleRate in [48000.0, 96000] {
            let wide = Measure.impulseResponse(ReverbParameters(decay: 1.5, width: 1), sampleRate: sampleRate, seconds: 1.5)
            let wideCorrelation = Measure.correlation(wide.left, wide.right)
            // Required |ρ| < 0.3 at width 1; measured |ρ| < 0.03.
            XCTAssertLessThan(abs(wideCorrelation), 0.1, "\(sampleRate) Hz, width 1")
            let half = Measure.impulseResponse(ReverbParameters(decay: 1.5, width: 0.5), sampleRate: sampleRate, seconds: 1.5)
            // Width 0.5 blends (3/4, 1/4) of the sides, normalised: ρ = 2·(3/4·1/4)/((3/4)² + (1/4)²) = 0.6.
            XCTAssertEqual(Measure.correlation(half.left, half.right), 0.6, accuracy: 0.1, "\(sampleRate) Hz, width 0.5")
            let mono = Measure.impulseResponse(ReverbParameters(decay: 1.5, width: 0), sampleRate: sampleRate, seconds: 1.5)
            XCTAssertEqual(mono.left, mono.right, "\(sampleRate) Hz, width 0: identical sides")
            XCTAssertEqual(Measure.energy(mono.left), Measure.energy(wide.left), accuracy: 0.3 * Measure.energy(wide.left),
                           "\(sampleRate) Hz: narrowing keeps the wet power (within 1.1 dB)")
        }
    }

    func testEchoDensityGrowsIntoADiffuseTailWithoutMetallicRinging() {
        let sampleRate = 48000.0
        for size: Float in [0, 0.6, 1] {
            let ir = Measure.impulseResponse(ReverbParameters(decay: 1.5, predelay: 0, size: size, damping: 0), sampleRate: sampleRate, seconds: 0.8)
            let onset = Measure.onset(ir.left)!
            // Normalised echo density (1 = Gaussian noise): sparse just after the onset, diffuse later.
            let early = Measure.echoDensity(ir.left, range: onset..<(onset + 480), window: 240)
            let late = Measure.echoDensity(ir.left, range: 9600..<28800, window: 960)
            XCTAssertLessThan(early, 0.85, "size \(size): the first 10 ms are still sparse")
            XCTAssertGreaterThan(late, 0.9, "size \(size): 200…600 ms is diffuse")
            XCTAssertGreaterThan(late, early + 0.15, "size \(size): the echo density grows")
            // Metallic ringing shows as periodicity: the late tail's normalised autocorrelation stays below
            // 0.2 at every lag from 1 to 100 ms (measured < 0.1).
            let strongest = Measure.strongestAutocorrelation(Array(ir.left[9600..<28800]), lags: 48..<4800)
            XCTAssertLessThan(strongest, 0.2, "size \(size): no periodic peak in the tail's autocorrelation")
        }
    }

    func testWetLevelFollowsTheDecayAndNotTheSize() {
        let sampleRate = 48000.0
        var levels: [Double] = []
        for (decay, size) in [(Float(1.5), Float(0)), (1.5, 1), (4, 0.6)] {
            let ir = Measure.impulseResponse(ReverbParameters(decay: decay, predelay: 0, size: size, damping: 0), sampleRate: sampleRate,
                                             seconds: Double(decay) * 1.5)
            let level = 10 * log10(Measure.energy(ir.left))
            levels.append(level)
            // The law: wet impulse energy ≈ decay / 2 s of the dry impulse's, within 1.5 dB.
            XCTAssertEqual(level, 10 * log10(Double(decay) / 2), accuracy: 1.5, "decay \(decay) s, size \(size)")
        }
        XCTAssertEqual(levels[0], levels[1], accuracy: 1.5, "size changes the level by less than 1.5 dB")
    }

    func testDCDoesNotBuildUpInTheTank() {
        // A symmetric Hadamard loop has a +1 eigenvalue: DC would recirculate with gain ~1/(1 − g), ×30 at
        // 20 s. The signed matrix keeps the wet step response within ±2 (measured ≤ 1.5).
        for decay: Float in [2, 20] {
            let step = Measure.render(ReverbParameters(decay: decay, predelay: 0, damping: 0, mix: 1), left: [Float](repeating: 1, count: 48000 * 3))
            let peak = max(step.left.map(\.magnitude).max()!, step.right.map(\.magnitude).max()!)
            XCTAssertLessThan(peak, 2, "decay \(decay) s: DC step response")
        }
    }

    func testPredelayShiftsTheWetSignalByExactlyItsLength() {
        for sampleRate in [48000.0, 44100] {
            let reference = Measure.impulseResponse(ReverbParameters(predelay: 0), sampleRate: sampleRate, seconds: 0.5)
            for predelay: Float in [12.5, 200] {
                let shift = Int((Double(predelay) * sampleRate / 1000).rounded())
                let delayed = Measure.impulseResponse(ReverbParameters(predelay: predelay), sampleRate: sampleRate, seconds: 0.5)
                XCTAssertEqual(Measure.onset(delayed.left), Measure.onset(reference.left)! + shift, "\(sampleRate) Hz, \(predelay) ms")
                let frames = reference.left.count - shift
                XCTAssertEqual(Array(delayed.left[shift...]), Array(reference.left[..<frames]), "\(sampleRate) Hz, \(predelay) ms: left, bit-exact")
                XCTAssertEqual(Array(delayed.right[shift...]), Array(reference.right[..<frames]), "\(sampleRate) Hz, \(predelay) ms: right")
            }
        }
    }
}
