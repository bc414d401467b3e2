// Feedback notches' ages: recorded by the analysis when a notch is placed and deepened, on its clock of analysed input; published as meters. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import FoldbackFeedback
import FoldbackFeedbackTesting
import XCTest

final class NotchAgeTests: XCTestCase {
    private let sampleRate = 48_000.0

    /// Saved notches are placed when the unit starts: after 3 s of input each is 3 s old (within a block and a hop),
    /// the meters carry it, and a cleared notch has no age.
    func testSavedNotchesAgeWithTheAnalysedInput() throws {
        var settings = FeedbackSettings()
        settings.fixedNotches = [EQBand(type: .peak, frequency: 2_537, gainDB: -9, q: 16), EQBand(type: .peak, frequency: 820, gainDB: -6, q: 16)]
        let unit = FeedbackUnit(settings: settings, runsWorker: false)
        let stage = try SimulatedStage(room: RoomModel(), sampleRate: sampleRate, unit: unit, maxFrames: 128)
        let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
        _ = stage.run(frames: Int(3 * sampleRate), blockSize: 128, source: noise, loopGainDB: { _ in -40 })
        let ages = unit.notchAges
        XCTAssertEqual(ages.keys.sorted(), [0, 1])
        for (slot, age) in ages {
            XCTAssertEqual(age.age, 3, accuracy: 0.01, "notch \(slot + 1): 3 s of input since the unit started")
            XCTAssertEqual(age.sinceChange, age.age, accuracy: 1e-9, "never deepened")
        }
        let readings = unit.meterReadings()
        let age = try XCTUnwrap(readings.first { $0.key == "notch1_age_s" }).value
        XCTAssertEqual(age, 3, accuracy: 0.01)
        XCTAssertNotNil(readings.first { $0.key == "notch2_changed_s" })

        XCTAssertTrue(unit.clearNotch(1))
        _ = stage.run(frames: 1_024, blockSize: 128, source: noise, loopGainDB: { _ in -40 })
        XCTAssertEqual(unit.notchAges.keys.sorted(), [1], "a cleared notch has no age")
    }

    /// Ring-out up to MSG + 4 dB: each notch's age is the time since its ring was found, and its time since change
    /// the time since it was last deepened, both as the event log has them.
    func testAFoundNotchAgesFromWhenItsRingWasFoundAndItsChangeFromItsLastDeepening() throws {
        let room = RoomModel()
        let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
        let voice = StageMeasurements.source(.voice(level: -30), sampleRate: sampleRate)
        var settings = FeedbackSettings()
        settings.mode = .ringOut
        let unit = FeedbackUnit(settings: settings, runsWorker: false)
        let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: unit, maxFrames: 128)
        let seconds = 6.0
        _ = stage.run(frames: Int(seconds * sampleRate), blockSize: 128, source: voice,
                      loopGainDB: { msg - 6 + 10 * min(Double($0) / (5 * self.sampleRate), 1) })
        let ages = unit.notchAges, events = unit.events
        XCTAssertFalse(ages.isEmpty, "the ramp found a ring")
        for notch in unit.notches where notch.depthDB < 0 {
            let age = try XCTUnwrap(ages[notch.slot])
            let found = try XCTUnwrap(events.first { $0.notch.slot == notch.slot && $0.ringLevelDB != nil })
            let last = try XCTUnwrap(events.last { $0.notch.slot == notch.slot })
            print("notch \(notch.slot + 1) at \(Int(notch.frequency)) Hz: found at \(found.time) s, last changed at \(last.time) s; age \(age.age) s, \(age.sinceChange) s since change")
            XCTAssertEqual(age.age, seconds - found.time, accuracy: 0.01)
            XCTAssertEqual(age.sinceChange, seconds - last.time, accuracy: 0.01)
        }
    }
}
