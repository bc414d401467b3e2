// The built-in `deesser` beside an LV2 de-esser from Debian (mda DeEss, mda-lv2) on the same vowel and sibilant bursts. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import Foundation
import XCTest

final class DeesserLV2ComparisonTests: XCTestCase {
    /// A sustained vowel: harmonics of 150 Hz up to 3.9 kHz falling 12 dB an octave.
    private static func vowel(frames: Int) -> [Float] {
        (0..<frames).map { frame in
            var sum = 0.0
            for harmonic in 1...26 {
                let phase = 2 * Double.pi * 150 * Double(harmonic) * Double(frame) / 48000 + Double(harmonic)
                sum += sin(phase) / Double(harmonic * harmonic)
            }
            return Float(0.3 * sum)
        }
    }

    /// Sibilance: 81 equal sines every 50 Hz from 5 to 9 kHz with fixed pseudo-random phases, −20 dBFS RMS.
    private static func sibilance(frames: Int) -> [Float] {
        let phases = (0..<81).map { Double(($0 * 7919) % 360) * Double.pi / 180 }
        let amplitude = 0.1 * (2.0 / 81).squareRoot()
        return (0..<frames).map { frame in
            var sum = 0.0
            for (index, phase) in phases.enumerated() {
                sum += sin(2 * Double.pi * (5000 + 50 * Double(index)) * Double(frame) / 48000 + phase)
            }
            return Float(amplitude * sum)
        }
    }

    private static func decibels(_ signal: [Float], _ range: Range<Int>) -> Double {
        10 * log10(signal[range].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(range.count))
    }

    /// Vowel alone for 1 s, then bursts of 150 ms alone: Foldback's de-esser at 7 kHz, Q 0.7, −30 dBFS,
    /// range 15 dB against mda DeEss at thresh 0.1, freq 0.34, HF drive 0.5 (set to about the same burst
    /// reduction). Both take the bursts down ≥ 6 dB and leave the vowel within 0.5 dB; Foldback's vowel
    /// change is no larger than mda's.
    func testFoldbacksDeesserBesideMdaDeEss() throws {
        let input = Self.vowel(frames: 48000) + Self.sibilance(frames: 7200) + [Float](repeating: 0, count: 4800)
        let vowelRange = 4800..<48000, burstRange = 48480..<55200
        let foldback = DeesserUnit(values: ["frequency_hz": 7000, "q": 0.7, "threshold_db": -30, "range_db": 15])
        let mda = try LV2Unit(uri: "http://drobilla.net/plugins/mda/DeEss", controls: ["thresh": 0.1, "freq": 0.34, "hf_drive": 0.5])
        var figures: [(name: String, burst: Double, vowel: Double)] = []
        for (name, unit) in [("foldback deesser", foldback as any EngineUnit), ("mda DeEss", mda)] {
            let output = try UnitDriver(unit, channels: 1).run([input], block: 256)[0]
            let burst = Self.decibels(input, burstRange) - Self.decibels(output, burstRange)
            let vowel = Self.decibels(output, vowelRange) - Self.decibels(input, vowelRange)
            figures.append((name, burst, vowel))
            print("\(name): sibilant bursts −\(String(format: "%.2f", burst)) dB, vowel \(String(format: "%+.3f", vowel)) dB")
            XCTAssertGreaterThanOrEqual(burst, 6, name)
            XCTAssertLessThan(abs(vowel), 0.5, name)
        }
        XCTAssertLessThanOrEqual(abs(figures[0].vowel), abs(figures[1].vowel) + 0.001)
    }
}
