// The feedback analysis rests on digital silence and finds a howl after it exactly as without it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
import FoldbackFeedbackTesting
import XCTest

final class SilentInputRestTests: XCTestCase {
    /// The simulated stage at MSG − 6 dB for 1 s, then MSG + 3 dB (a howl), after `silence` frames of exact zeros
    /// (room noise off); the unit's events and whether its analysis rested at the end of the silence and at the end.
    private func run(silence: Int, sampleRate: Double, blockSize: Int) throws -> (events: [FeedbackEvent], restedInSilence: Bool, restsAtEnd: Bool) {
        let room = RoomModel()
        let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
        let unit = FeedbackUnit(runsWorker: false)
        let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: unit, maxFrames: blockSize)
        let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
        let onset = Int(sampleRate)
        var restedInSilence = false
        if silence > 0 {
            _ = stage.run(frames: silence, blockSize: blockSize, source: { _ in 0 }, loopGainDB: { _ in msg - 6 })
            restedInSilence = unit.isAnalysisResting
        }
        _ = stage.run(frames: Int(3 * sampleRate), blockSize: blockSize, source: noise, loopGainDB: { $0 < onset ? msg - 6 : msg + 3 })
        return (unit.events, restedInSilence, unit.isAnalysisResting)
    }

    /// After 2 s of zeros the analysis rests; with sound it does not; and the howl's notches are the same, at the
    /// same frequencies and depths, exactly as much later (about 2 s, in whole analysis hops) (48 kHz / 64 frames, 44.1 kHz / 253).
    func testAHowlAfterSilenceIsFoundAsWithout() throws {
        for (sampleRate, blockSize) in [(48_000.0, 64), (44_100.0, 253)] {
            let silence = Int(2 * sampleRate) / 256 * 256   // whole analysis hops (256 frames at 44.1 and 48 kHz)
            let plain = try run(silence: 0, sampleRate: sampleRate, blockSize: blockSize)
            let after = try run(silence: silence, sampleRate: sampleRate, blockSize: blockSize)
            XCTAssertTrue(after.restedInSilence, "\(sampleRate) Hz: resting after about 2 s of zeros")
            XCTAssertFalse(after.restsAtEnd, "\(sampleRate) Hz: not resting with sound")
            XCTAssertFalse(plain.events.isEmpty, "\(sampleRate) Hz: the howl is found")
            XCTAssertEqual(after.events.map(\.notch), plain.events.map(\.notch), "\(sampleRate) Hz")
            for (late, early) in zip(after.events, plain.events) {
                XCTAssertEqual(late.time - early.time, Double(silence) / sampleRate, accuracy: 1e-9, "\(sampleRate) Hz")
            }
        }
    }
}
