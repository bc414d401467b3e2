// Decibels: dB ↔ linear conversions, the silence floor, −∞ and NaN, and round trips.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class DecibelsTests: XCTestCase {
    func testReferenceLevelsConvertToTheirLinearGains() {
        XCTAssertEqual(Decibels.linearGain(fromDecibels: 0), 1, "0 dB is unity, exactly")
        XCTAssertEqual(Decibels.linearGain(fromDecibels: 20), 10, accuracy: 1e-6)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -20), 0.1, accuracy: 1e-8)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -6.0206), 0.5, accuracy: 1e-6)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: 6.0206), 2, accuracy: 1e-5)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -3.0103), 0.70710678, accuracy: 1e-6)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -120), 1e-6, accuracy: 1e-12)
    }

    func testLinearGainsConvertToTheirLevels() {
        XCTAssertEqual(Decibels.decibels(fromLinearGain: 1), 0, "unity is 0 dB, exactly")
        XCTAssertEqual(Decibels.decibels(fromLinearGain: 10), 20, accuracy: 1e-5)
        XCTAssertEqual(Decibels.decibels(fromLinearGain: 0.5), -6.0206, accuracy: 1e-4)
        XCTAssertEqual(Decibels.decibels(fromLinearGain: 0.001), -60, accuracy: 1e-4)
    }

    func testSilenceFloorAndMinusInfinityGiveExactlyZero() {
        XCTAssertEqual(Decibels.linearGain(fromDecibels: Decibels.silenceFloor), 0)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -144), 0)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -200), 0)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -.infinity), 0)
        XCTAssertEqual(Decibels.linearGain(fromDecibels: -.infinity).sign, .plus, "silence is +0, never −0")
        // Just above the floor is still a (tiny) positive gain: the floor is a threshold, not a clamp.
        let aboveFloor = Decibels.linearGain(fromDecibels: -143.9)
        XCTAssertGreaterThan(aboveFloor, 0)
        XCTAssertEqual(aboveFloor, 6.3826e-8, accuracy: 1e-11)
    }

    func testNaNLevelIsSilenceNotNaN() {
        // A NaN reaching the converter must not poison the audio path.
        XCTAssertEqual(Decibels.linearGain(fromDecibels: .nan), 0)
    }

    func testZeroAndNegativeGainsAreMinusInfinity() {
        XCTAssertEqual(Decibels.decibels(fromLinearGain: 0), -.infinity)
        XCTAssertEqual(Decibels.decibels(fromLinearGain: -0.0), -.infinity)
        XCTAssertEqual(Decibels.decibels(fromLinearGain: -1), -.infinity)
        XCTAssertEqual(Decibels.decibels(fromLinearGain: .nan), -.infinity)
    }

    func testDecibelRoundTripIsWithinOneThousandthOfADecibelFromMinus140ToPlus48() {
        var worst: Float = 0
        var level: Float = -140
        while level <= 48 {
            let back = Decibels.decibels(fromLinearGain: Decibels.linearGain(fromDecibels: level))
            worst = max(worst, abs(back - level))
            level += 0.25
        }
        XCTAssertLessThan(worst, 1e-3, "worst dB → linear → dB error \(worst) dB")
    }

    func testLinearRoundTripIsWithinOnePartPerMillionFrom1eMinus6To100() {
        var worst: Float = 0
        var gain: Float = 1e-6
        while gain <= 100 {
            let back = Decibels.linearGain(fromDecibels: Decibels.decibels(fromLinearGain: gain))
            worst = max(worst, abs(back - gain) / gain)
            gain *= 1.07
        }
        XCTAssertLessThan(worst, 1e-5, "worst relative linear → dB → linear error \(worst)")
    }

    func testConversionIsMonotonic() {
        var previous: Float = 0
        var level: Float = -143.5
        while level <= 48 {
            let gain = Decibels.linearGain(fromDecibels: level)
            XCTAssertGreaterThan(gain, previous, "gain must rise with level at \(level) dB")
            previous = gain
            level += 0.5
        }
    }
}
