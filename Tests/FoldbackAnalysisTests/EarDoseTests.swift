// The in-ear noise dose: NIOSH's 85 dB(A) / 8 h criterion, the 3 dB exchange rate, the ear-level assumption and the projection. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import XCTest

final class EarDoseTests: XCTestCase {
    /// 85 dB for 8 h, 88 dB for 4 h and 100 dB for 15 min are each 100 %; silence adds nothing.
    func testCriterionAndExchangeRate() {
        XCTAssertEqual(EarDose.percent(levelDB: 85, seconds: 8 * 3600), 100, accuracy: 1e-9)
        XCTAssertEqual(EarDose.percent(levelDB: 88, seconds: 4 * 3600), 100, accuracy: 1e-9)
        XCTAssertEqual(EarDose.percent(levelDB: 100, seconds: 15 * 60), 100, accuracy: 1e-9)
        XCTAssertEqual(EarDose.percent(levelDB: -.infinity, seconds: 3600), 0)
    }

    /// A −14 LUFS mix is taken as 98 dB SPL (112 dB for 0 LUFS); an hour of it is 1 h / (8 h / 2^(13/3))
    /// = 252 %. The projection extends the last minute's rate to the show's end.
    func testAccumulationAndProjection() {
        var dose = EarDose()
        for _ in 0..<(3600 * 20) { dose.add(seconds: 0.05, loudnessLUFS: -14) }
        XCTAssertEqual(dose.earLevelDB, 98, accuracy: 1e-9)
        let hour = 100 * 3600 / (8 * 3600 / pow(2, 13.0 / 3))
        XCTAssertEqual(dose.percent, hour, accuracy: hour * 1e-6)
        XCTAssertEqual(dose.projectedPercent(showSeconds: 7200), 2 * hour, accuracy: hour * 1e-3)
        for _ in 0..<(61 * 20) { dose.add(seconds: 0.05, loudnessLUFS: -.infinity) }
        XCTAssertEqual(dose.projectedPercent(showSeconds: 7200), dose.percent, accuracy: 1e-9, "a silent last minute projects no more")
    }
}
