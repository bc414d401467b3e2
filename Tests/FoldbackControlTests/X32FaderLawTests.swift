// The X32 fader law against the documented breakpoints, its 1024 steps and its round trip. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackX32
import XCTest

final class X32FaderLawTests: XCTestCase {
    /// The document's breakpoints: 0 is off, 0.0625 −60 dB, 0.25 −30 dB, 0.5 −10 dB, 0.75 0 dB, 1 +10 dB (within one step).
    func testBreakpointsAreTheDocumentedLevels() {
        XCTAssertEqual(X32FaderLaw.decibels(position: 0), -.infinity)
        let step: Float = 1 / 1023
        for (position, decibels) in [(0.0625, -60.0), (0.25, -30.0), (0.5, -10.0), (0.75, 0.0), (1.0, 10.0)] as [(Float, Float)] {
            let quantised = X32FaderLaw.quantised(position)
            XCTAssertLessThanOrEqual(abs(quantised - position), step / 2, "\(position) is within half a step of a step")
            // The slope at a breakpoint is at most 480 dB per unit, so half a step moves at most 0.24 dB (40 dB/unit above 0.5: 0.02 dB).
            let tolerance: Float = position >= 0.5 ? 0.02 : 0.24
            XCTAssertEqual(X32FaderLaw.decibels(position: position), decibels, accuracy: tolerance, "at \(position)")
        }
        XCTAssertEqual(X32FaderLaw.decibels(position: 1), 10, accuracy: 1e-5)
        XCTAssertEqual(X32FaderLaw.position(decibels: 0), 767 / 1023, accuracy: 1e-7, "0 dB is step 767 of 0…1023")
    }

    /// Each segment is a straight line of the documented slope: 480, 160, 80 and 40 dB per unit of travel.
    func testSegmentsHaveTheDocumentedSlopes() {
        for (low, high, slope) in [(10, 60, 480), (70, 250, 160), (260, 500, 80), (520, 1023, 40)] as [(Float, Float, Float)] {
            let a = X32FaderLaw.decibels(position: low / 1023), b = X32FaderLaw.decibels(position: high / 1023)
            XCTAssertEqual((b - a) / ((high - low) / 1023), slope, accuracy: slope * 1e-4, "steps \(low)…\(high)")
        }
    }

    /// 1024 steps: every step maps to a level that maps back to the same step, levels rising with the fader.
    func testEveryStepRoundTripsAndLevelsRise() {
        var previous = -Float.infinity
        for step in 1..<X32FaderLaw.steps {
            let position = Float(step) / 1023
            let decibels = X32FaderLaw.decibels(position: position)
            XCTAssertGreaterThan(decibels, previous, "step \(step)")
            XCTAssertEqual(X32FaderLaw.position(decibels: decibels), position, "step \(step) round trip")
            previous = decibels
        }
        XCTAssertEqual(X32FaderLaw.position(decibels: -.infinity), 0)
        XCTAssertEqual(X32FaderLaw.position(decibels: -95), 0)
        XCTAssertEqual(X32FaderLaw.position(decibels: 24), 1)
        XCTAssertEqual(X32FaderLaw.position(decibels: .nan), 0)
        XCTAssertEqual(X32FaderLaw.quantised(.nan), 0)
        XCTAssertEqual(X32FaderLaw.quantised(7), 1)
    }
}
