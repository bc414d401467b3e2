// PanLaw: constant-power pan for mono sources and balance for stereo sources, at the extremes, centre and in between.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class PanLawTests: XCTestCase {
    private let positions: [Float] = stride(from: -1, through: 1, by: 0.01).map { Float($0) }

    func testConstantPowerExtremesAreExact() {
        let left = PanLaw.constantPower(pan: -1)
        XCTAssertEqual(left.left, 1)
        XCTAssertEqual(left.right, 0)
        let right = PanLaw.constantPower(pan: 1)
        XCTAssertEqual(right.left, 0)
        XCTAssertEqual(right.right, 1)
    }

    func testConstantPowerCentreIsMinus3dBOnEachSide() {
        let centre = PanLaw.constantPower(pan: 0)
        XCTAssertEqual(centre.left, 0.70710678, accuracy: 1e-7)
        XCTAssertEqual(centre.right, 0.70710678, accuracy: 1e-7)
        XCTAssertEqual(centre.left, centre.right, "the centre is symmetric")
    }

    func testConstantPowerKeepsPowerAtOneAcrossPositions() {
        for pan in positions {
            let gains = PanLaw.constantPower(pan: pan)
            XCTAssertEqual(gains.left * gains.left + gains.right * gains.right, 1, accuracy: 1e-6, "L²+R² at pan \(pan)")
        }
    }

    func testConstantPowerFollowsTheSineCosineLaw() {
        for pan in positions {
            let gains = PanLaw.constantPower(pan: pan)
            let angle = Double(pan + 1) * Double.pi / 4
            XCTAssertEqual(gains.left, Float(cos(angle)), accuracy: 1e-6, "left at pan \(pan)")
            XCTAssertEqual(gains.right, Float(sin(angle)), accuracy: 1e-6, "right at pan \(pan)")
        }
        // −0.5 is 22.5°: cos 0.9238795, sin 0.3826834.
        let quarter = PanLaw.constantPower(pan: -0.5)
        XCTAssertEqual(quarter.left, 0.9238795, accuracy: 1e-6)
        XCTAssertEqual(quarter.right, 0.3826834, accuracy: 1e-6)
    }

    func testConstantPowerIsMirrorSymmetricAndMonotonic() {
        var previousRight: Float = -1
        for pan in positions {
            let gains = PanLaw.constantPower(pan: pan)
            let mirrored = PanLaw.constantPower(pan: -pan)
            XCTAssertEqual(gains.left, mirrored.right, accuracy: 1e-6, "mirror at pan \(pan)")
            XCTAssertGreaterThanOrEqual(gains.right, previousRight, "right gain rises with pan at \(pan)")
            previousRight = gains.right
        }
    }

    func testConstantPowerClampsOutOfRangePositions() {
        XCTAssertTrue(PanLaw.constantPower(pan: -7) == (1, 0))
        XCTAssertTrue(PanLaw.constantPower(pan: 3) == (0, 1))
    }

    func testBalanceCentreIsUnityOnBothSides() {
        XCTAssertTrue(PanLaw.balance(pan: 0) == (1, 1))
    }

    func testBalanceAttenuatesOnlyTheFarSideLinearly() {
        XCTAssertTrue(PanLaw.balance(pan: -1) == (1, 0))
        XCTAssertTrue(PanLaw.balance(pan: 1) == (0, 1))
        for pan in positions {
            let gains = PanLaw.balance(pan: pan)
            if pan < 0 {
                XCTAssertEqual(gains.left, 1, "near side stays at unity (pan \(pan))")
                XCTAssertEqual(gains.right, 1 + pan, accuracy: 1e-7, "far side is 1 − |pan| (pan \(pan))")
            } else {
                XCTAssertEqual(gains.right, 1, "near side stays at unity (pan \(pan))")
                XCTAssertEqual(gains.left, 1 - pan, accuracy: 1e-7, "far side is 1 − |pan| (pan \(pan))")
            }
        }
        let gains = PanLaw.balance(pan: 0.25)
        XCTAssertEqual(gains.left, 0.75)
        XCTAssertEqual(gains.right, 1)
    }

    func testBalanceClampsOutOfRangePositions() {
        XCTAssertTrue(PanLaw.balance(pan: -2) == (1, 0))
        XCTAssertTrue(PanLaw.balance(pan: 5) == (0, 1))
    }
}
