// The notch planner's rules: first cut, deepening then widening, release after the hold, reuse of the oldest, fixed ring-out notches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class NotchPlannerTests: XCTestCase {
    private func ring(_ frequency: Double) -> HowlRing { HowlRing(frequency: frequency, levelDB: -40, growthDB: 6) }
    private let quiet: (Double) -> (peakToAverageDB: Double, levelDB: Double) = { _ in (0, -90) }
    private let ringing: (Double) -> (peakToAverageDB: Double, levelDB: Double) = { _ in (20, -40) }

    func testLiveNotchDeepensWidensThenIsReleasedAfterTheHold() {
        var planner = NotchPlanner(mode: .live, maxDepthDB: -12, holdSeconds: 2)
        let placed = planner.update(time: 0, rings: [ring(2000)], probe: quiet)
        XCTAssertEqual(placed.map(\.depthDB), [-9])
        XCTAssertEqual(placed.map(\.q), [16])
        XCTAssertEqual(planner.update(time: 0.05, rings: [], probe: ringing), [], "judged only after the settle time")
        XCTAssertEqual(planner.update(time: 0.1, rings: [], probe: ringing).map(\.depthDB), [-12], "still ringing: 3 dB deeper")
        let widened = planner.update(time: 0.2, rings: [], probe: ringing)
        XCTAssertEqual(widened.map(\.depthDB), [-12], "at max_depth_db: widened instead")
        XCTAssertEqual(widened.first?.q ?? 0, 16 / 1.5, accuracy: 1e-9)
        XCTAssertEqual(planner.update(time: 2.1, rings: [], probe: quiet), [], "held for hold_s after last seen (0.2 s)")
        let released = planner.update(time: 2.2, rings: [], probe: quiet)
        XCTAssertEqual(released.map(\.depthDB), [0])
        XCTAssertEqual(released.first?.depthRateDBPerSecond, NotchPlanner.releaseRate)
        XCTAssertEqual(planner.activeNotches.count, 1, "kept while its depth glides back")
        _ = planner.update(time: 2.2 + 12 / NotchPlanner.releaseRate + 0.01, rings: [], probe: quiet)
        XCTAssertEqual(planner.activeNotches.count, 0)
    }

    func testARingReturningOnAReleasingNotchSendsItBack() {
        var planner = NotchPlanner(mode: .live, maxDepthDB: -15, holdSeconds: 1)
        _ = planner.update(time: 0, rings: [ring(1000)], probe: quiet)
        XCTAssertEqual(planner.update(time: 1.1, rings: [], probe: quiet).map(\.depthDB), [0])
        XCTAssertEqual(planner.update(time: 1.5, rings: [ring(1001)], probe: quiet).map(\.depthDB), [-9], "back to its depth, same slot")
        XCTAssertEqual(planner.activeNotches.map(\.slot), [0])
    }

    func testTheOldestLiveNotchIsReusedWhenAllSixteenAreBusy() {
        var planner = NotchPlanner(mode: .live, maxDepthDB: -12, holdSeconds: 60)
        for index in 0..<16 { _ = planner.update(time: Double(index), rings: [ring(500 + 300 * Double(index))], probe: ringing) }
        XCTAssertEqual(planner.activeNotches.count, 16)
        let reused = planner.update(time: 20, rings: [ring(9000)], probe: ringing).filter { $0.frequency == 9000 }
        XCTAssertEqual(reused.map(\.slot), [0], "slot 0 held the oldest notch (500 Hz)")
        XCTAssertFalse(planner.activeNotches.contains { $0.frequency == 500 })
    }

    func testRingOutNotchesAreFixedAndNeverReused() {
        let saved = [NotchSetting(slot: 0, frequency: 2500, depthDB: -9, q: 16, depthRateDBPerSecond: 0)]
        var planner = NotchPlanner(mode: .ringOut, maxDepthDB: -12, holdSeconds: 1, fixed: saved)
        for index in 1..<16 { _ = planner.update(time: Double(index), rings: [ring(310 + 150 * Double(index))], probe: quiet) }
        XCTAssertEqual(planner.activeNotches.count, 16)
        XCTAssertEqual(planner.update(time: 100, rings: [ring(9000)], probe: quiet), [], "every slot fixed: nothing to reuse, nothing released")
        XCTAssertEqual(planner.activeNotches.first?.frequency, 2500)
    }
}
