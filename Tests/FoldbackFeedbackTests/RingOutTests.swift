// Ring-out mode on the simulated stage: fixed notches found while the gain is raised, kept, and reloaded as fixed bands. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackDSP
import FoldbackFeedback
import FoldbackFeedbackTesting
import XCTest

final class RingOutTests: XCTestCase {
    /// Sound check: gain raised to MSG + 4 dB over 8 s; every ring found keeps its notch (none released) and
    /// the loop stays 20 dB under the howl. A new unit loaded with those notches as its saved bands then
    /// holds MSG + 3 dB from the first second without a single new notch.
    func testRingOutNotchesStayAndHoldTheLoopWhenReloaded() throws {
        let sampleRate = 48_000.0
        let room = RoomModel()
        let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
        let voice = StageMeasurements.source(.voice(level: -30), sampleRate: sampleRate)
        let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
        var settings = FeedbackSettings()
        settings.mode = .ringOut
        settings.holdSeconds = 0.5                 // ignored in ring-out: nothing is released
        let soundCheck = FeedbackUnit(settings: settings, runsWorker: false)
        let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: soundCheck, maxFrames: 128)
        let frames = Int(10 * sampleRate)
        let output = stage.run(frames: frames, blockSize: 128, source: { voice($0) + noise($0) },
                               loopGainDB: { msg - 6 + 10 * min(Double($0) / (8 * sampleRate), 1) })
        let bands = soundCheck.notchBands
        let worst = StageMeasurements.maxLevelDB(output, sampleRate: sampleRate, from: 8, to: 10)
        print("ring-out to MSG + 4 dB: \(bands.count) fixed notches", bands.map { "\(Int($0.frequency)) Hz \($0.gainDB) dB Q \(fmt($0.q))" },
              "loudest 50 ms in the last 2 s \(fmt(worst)) dBFS")
        XCTAssertGreaterThanOrEqual(bands.count, 1)
        XCTAssertFalse(soundCheck.events.contains { $0.notch.depthDB == 0 }, "ring-out never releases")
        XCTAssertLessThan(worst, -20)

        var show = FeedbackSettings()
        show.fixedNotches = bands
        let reloaded = FeedbackUnit(settings: show, runsWorker: false)
        let showStage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: reloaded, maxFrames: 128)
        XCTAssertEqual(reloaded.notches.map(\.frequency), bands.map(\.frequency))
        let showOutput = showStage.run(frames: Int(4 * sampleRate), blockSize: 128, source: { voice($0) + noise($0) },
                                       loopGainDB: { _ in msg + 3 })
        let showWorst = StageMeasurements.maxLevelDB(showOutput, sampleRate: sampleRate, from: 0, to: 4)
        print("reloaded at MSG + 3 dB: loudest 50 ms \(fmt(showWorst)) dBFS, \(reloaded.events.count) new notch changes")
        XCTAssertLessThan(showWorst, -20)
        XCTAssertEqual(reloaded.events.count, 0, "the saved notches hold the loop: nothing new to find")
    }
}
