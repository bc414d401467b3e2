// The EQ section design against the Audio EQ Cookbook: coefficients, and known gains at the design frequency.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation
import XCTest

final class BiquadDesignTests: XCTestCase {
    /// The cookbook as published (cos ω, a0 not yet divided out), written independently of BiquadDesign.
    private func cookbook(_ type: EQBandType, f0: Double, fs: Double, gainDB: Double, q: Double) -> [Double] {
        let w0 = 2 * Double.pi * f0 / fs, c = cos(w0), alpha = sin(w0) / (2 * q), a = pow(10, gainDB / 40)
        let r = 2 * a.squareRoot() * alpha
        let raw: [Double]   // b0 b1 b2 a0 a1 a2
        switch type {
        case .peak: raw = [1 + alpha * a, -2 * c, 1 - alpha * a, 1 + alpha / a, -2 * c, 1 - alpha / a]
        case .lowShelf:
            raw = [a * ((a + 1) - (a - 1) * c + r), 2 * a * ((a - 1) - (a + 1) * c), a * ((a + 1) - (a - 1) * c - r),
                   (a + 1) + (a - 1) * c + r, -2 * ((a - 1) + (a + 1) * c), (a + 1) + (a - 1) * c - r]
        case .highShelf:
            raw = [a * ((a + 1) + (a - 1) * c + r), -2 * a * ((a - 1) + (a + 1) * c), a * ((a + 1) + (a - 1) * c - r),
                   (a + 1) - (a - 1) * c + r, 2 * ((a - 1) - (a + 1) * c), (a + 1) - (a - 1) * c - r]
        case .lowPass: raw = [(1 - c) / 2, 1 - c, (1 - c) / 2, 1 + alpha, -2 * c, 1 - alpha]
        case .highPass: raw = [(1 + c) / 2, -(1 + c), (1 + c) / 2, 1 + alpha, -2 * c, 1 - alpha]
        case .notch: raw = [1, -2 * c, 1, 1 + alpha, -2 * c, 1 - alpha]
        case .bandPass: raw = [alpha, 0, -alpha, 1 + alpha, -2 * c, 1 - alpha]
        case .allPass: raw = [1 - alpha, -2 * c, 1 + alpha, 1 + alpha, -2 * c, 1 - alpha]
        }
        return [raw[0], raw[1], raw[2], raw[4], raw[5]].map { $0 / raw[3] }
    }

    func testEveryTypeMatchesTheCookbookFormulas() {
        for type in EQBandType.allCases {
            for (f0, fs, gain, q) in [(1000.0, 48000.0, 6.0, 1.0), (80.0, 44100.0, -9.5, 0.7071), (15000.0, 96000.0, 12.0, 4.0)] {
                let section = BiquadDesign.section(type, omega: 2 * Double.pi * f0 / fs, gainDB: gain, q: q)
                let expected = cookbook(type, f0: f0, fs: fs, gainDB: gain, q: q)
                let actual = [section.b0, section.b1, section.b2, section.a1, section.a2]
                for (index, (a, e)) in zip(actual, expected).enumerated() {
                    XCTAssertEqual(a, e, accuracy: 1e-12 * max(1, abs(e)), "\(type) \(f0) Hz at \(fs): coefficient \(index)")
                }
            }
        }
    }

    func testPeakGivesExactlyItsGainAtItsCentre() {
        for (gain, fs) in [(6.0, 48000.0), (-12.0, 44100.0), (24.0, 96000.0)] {
            let band = EQBand(type: .peak, frequency: 1000, gainDB: gain, q: 1.4)
            XCTAssertEqual(EQResponse.magnitudeDB(bands: [band], sampleRate: fs, frequency: 1000), gain, accuracy: 1e-9)
        }
    }

    func testBoostAndCutAreMirrorImages() {
        let frequencies = EQResponse.logSpacedFrequencies(from: 20, to: 20000, count: 200)
        for type in [EQBandType.peak, .lowShelf, .highShelf] {
            let boost = EQResponse.magnitudeDB(bands: [EQBand(type: type, frequency: 2000, gainDB: 9, q: 0.9)], sampleRate: 48000, frequencies: frequencies)
            let cut = EQResponse.magnitudeDB(bands: [EQBand(type: type, frequency: 2000, gainDB: -9, q: 0.9)], sampleRate: 48000, frequencies: frequencies)
            for (up, down) in zip(boost, cut) { XCTAssertEqual(up, -down, accuracy: 1e-9, "\(type)") }
        }
    }

    func testShelvesReachHalfTheirGainAtTheCornerAndAllOfItFarAway() {
        let low = EQBand(type: .lowShelf, frequency: 200, gainDB: 6)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [low], sampleRate: 48000, frequency: 200), 3, accuracy: 1e-9)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [low], sampleRate: 48000, frequency: 10), 6, accuracy: 0.01)
        let high = EQBand(type: .highShelf, frequency: 5000, gainDB: -8)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [high], sampleRate: 48000, frequency: 5000), -4, accuracy: 1e-9)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [high], sampleRate: 48000, frequency: 23_999), -8, accuracy: 0.01)
    }

    func testButterworthCornersAreThreeDecibelsDown() {
        for slope in [12, 24] {
            for (fc, fs) in [(80.0, 48000.0), (10.0, 96000.0), (12000.0, 44100.0)] {
                for type in [EQBandType.highPass, .lowPass] {
                    let band = EQBand(type: type, frequency: fc, slopeDBPerOctave: slope)
                    XCTAssertEqual(EQResponse.magnitudeDB(bands: [band], sampleRate: fs, frequency: fc), -3.0103, accuracy: 1e-4, "\(type) \(slope)")
                }
            }
        }
        // An octave into the stop band: 12 dB/oct ≈ −12.3 dB, 24 dB/oct ≈ −24.1 dB (analogue Butterworth values, low fc).
        let twelve = EQBand(type: .highPass, frequency: 200)
        let twentyFour = EQBand(type: .highPass, frequency: 200, slopeDBPerOctave: 24)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [twelve], sampleRate: 48000, frequency: 100), -12.30, accuracy: 0.02)
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [twentyFour], sampleRate: 48000, frequency: 100), -24.10, accuracy: 0.02)
        XCTAssertEqual(EQBand.fourthOrderButterworthQ.0, 0.5412, accuracy: 1e-4)
        XCTAssertEqual(EQBand.fourthOrderButterworthQ.1, 1.3066, accuracy: 1e-4)
    }

    func testNotchBandPassAndAllPassAtTheirCentre() {
        let notch = EQResponse.magnitudeDB(bands: [EQBand(type: .notch, frequency: 60, q: 8)], sampleRate: 48000, frequency: 60)
        XCTAssertLessThan(notch, -80, "a notch has a zero at its centre (evaluated in double precision: below −80 dB)")
        XCTAssertEqual(EQResponse.magnitudeDB(bands: [EQBand(type: .bandPass, frequency: 2000, q: 3)], sampleRate: 44100, frequency: 2000), 0, accuracy: 1e-9)
        let allPass = [EQBand(type: .allPass, frequency: 700, q: 2)]
        for level in EQResponse.magnitudeDB(bands: allPass, sampleRate: 48000, frequencies: EQResponse.logSpacedFrequencies(from: 10, to: 23000, count: 100)) {
            XCTAssertEqual(level, 0, accuracy: 1e-9)
        }
    }

    func testBandwidthAndSlopeConversions() {
        XCTAssertEqual(EQBand.q(bandwidthOctaves: 1), 1.4142, accuracy: 1e-4)     // one octave ≈ Q √2
        XCTAssertEqual(EQBand.bandwidthOctaves(q: EQBand.q(bandwidthOctaves: 2.5)), 2.5, accuracy: 1e-12)
        XCTAssertEqual(EQBand.q(shelfSlope: 1, gainDB: 9), EQBand.butterworthQ, accuracy: 1e-12)  // S = 1 is Q 1/√2 at any gain
        XCTAssertLessThan(EQBand.q(shelfSlope: 0.5, gainDB: 6), EQBand.butterworthQ)
    }

    func testDisabledBandsAndOutputGainInTheResponse() {
        let bands = [EQBand(type: .peak, frequency: 1000, gainDB: 6), EQBand(type: .peak, frequency: 1000, gainDB: 12, isEnabled: false)]
        XCTAssertEqual(EQResponse.magnitudeDB(bands: bands, sampleRate: 48000, frequencies: [1000], outputGainDB: -2)[0], 4, accuracy: 1e-9)
        XCTAssertEqual(EQResponse.thirdOctaveCentres.count, 30)
        XCTAssertEqual(EQResponse.thirdOctaveCentres.first?.frequency ?? 0, 25.12, accuracy: 0.01)
        XCTAssertEqual(EQResponse.thirdOctaveCentres.last?.frequency ?? 0, 19952.6, accuracy: 0.1)
    }
}
