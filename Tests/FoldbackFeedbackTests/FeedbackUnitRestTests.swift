// The feedback unit gated on digital silence (its rest check and per-chunk advance) plays and analyses exactly as running it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import FoldbackEngine
import FoldbackFeedback
import FoldbackFeedbackTesting
import XCTest

final class FeedbackUnitRestTests: XCTestCase {
    private struct Run {
        var wedge: [Float]
        var events: [FeedbackEvent]
        var gatedBlocks: Int
        var eventsWhileGated: Int
    }

    /// A howl (MSG + 3 dB after 1 s of noise), 8 s of exact zeros into the loop (the ring dies away within a second, the
    /// unit's filters are flushed to exact zero as the EQ's are, and its notches are released after `hold_s` = 6 s while
    /// it rests), then 1 s of noise again. The wedge path is the unit, run always or, when `gating`, skipped as the engine
    /// skips it on a block of exact +0.0 (its rest check, then its advance each block).
    private func run(gating: Bool, sampleRate: Double, blockSize: Int) throws -> Run {
        fb_team_enable_ftz_daz()   // as on the audio thread: the dying ring reaches exact zero
        var settings = FeedbackSettings()
        settings.holdSeconds = 6
        let unit = FeedbackUnit(settings: settings, runsWorker: false)
        let slot = try unit.prepare(channels: 1, sampleRate: sampleRate, maxFrames: blockSize)
        let rest = try XCTUnwrap(slot.functions.rest)
        XCTAssertTrue(rest.advancesEachChunk, "its zeros feed the analysis every chunk")
        var isKnownAtRest = false, gatedBlocks = 0, eventsWhileGated = 0, eventsBefore = 0
        let path: SimulatedStage.WedgePath = { mic, wedge, frames in
            var inputs = [mic]
            var outputs = [wedge]
            let isSilent = (0..<frames).allSatisfy { mic[$0].bitPattern == 0 }
            if gating, isSilent, isKnownAtRest || rest.check(slot.state, Int32(frames)) {
                if isKnownAtRest { rest.advance?(slot.state, Int32(frames)) }
                isKnownAtRest = true
                gatedBlocks += 1
                wedge.update(repeating: 0, count: frames)
                return
            }
            isKnownAtRest = false
            slot.functions.process(slot.state, &inputs, &outputs, Int32(frames))
        }
        let stage = SimulatedStage(room: RoomModel(), sampleRate: sampleRate, maxFrames: blockSize, path: path) {
            unit.analyzePending()
            if isKnownAtRest { eventsWhileGated += unit.events.count - eventsBefore }
            eventsBefore = unit.events.count
        }
        let msg = RoomModel().maximumStableGain(sampleRate: sampleRate).gainDB
        let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
        let onset = Int(sampleRate)
        var wedge = stage.run(frames: Int(2 * sampleRate), blockSize: blockSize, source: noise, loopGainDB: { $0 < onset ? msg - 6 : msg + 3 })
        wedge += stage.run(frames: Int(8 * sampleRate), blockSize: blockSize, source: { _ in 0 }, loopGainDB: { _ in msg - 6 })
        wedge += stage.run(frames: Int(sampleRate), blockSize: blockSize, source: noise, loopGainDB: { _ in msg - 6 })
        return Run(wedge: wedge, events: unit.events, gatedBlocks: gatedBlocks, eventsWhileGated: eventsWhileGated)
    }

    /// Gated and not, the wedge's output is bit-identical and the analysis finds, deepens and releases the same notches at
    /// the same times; the unit rests once its filters hold zeros, and the releases reach it while it rests.
    func testGatedOnSilenceAsRunning() throws {
        for (sampleRate, blockSize) in [(48_000.0, 64), (44_100.0, 253), (48_000.0, 7)] {
            let label = "\(sampleRate) Hz, block \(blockSize)"
            let plain = try run(gating: false, sampleRate: sampleRate, blockSize: blockSize)
            let gated = try run(gating: true, sampleRate: sampleRate, blockSize: blockSize)
            XCTAssertEqual(plain.wedge.count, gated.wedge.count, label)
            let differing = zip(plain.wedge, gated.wedge).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
            XCTAssertNil(differing, "the wedge differs at frame \(differing?.offset ?? -1), \(label)")
            XCTAssertFalse(plain.events.isEmpty, "the howl is found, \(label)")
            XCTAssertEqual(plain.events, gated.events, label)
            XCTAssertTrue(plain.events.contains { $0.notch.depthDB == 0 }, "a notch is released, \(label)")
            XCTAssertEqual(plain.gatedBlocks, 0, label)
            let silentBlocks = Int(8 * sampleRate) / blockSize
            XCTAssertGreaterThan(gated.gatedBlocks, silentBlocks / 2, "rests for most of the 8 s of zeros, \(label)")
            XCTAssertGreaterThan(gated.eventsWhileGated, 0, "the release reaches the unit while it rests, \(label)")
        }
    }
}
