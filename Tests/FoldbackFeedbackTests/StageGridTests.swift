// The feedback stage grid (loop 3 … 40 ms × periods × rates × two rooms): every cell caught and settled; programme in those rooms at MSG − 3 dB places no deep notch. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
import Foundation
import FoldbackFeedbackTesting
import XCTest

/// The representative cells run here; `FOLDBACK_FEEDBACK_GRID=full` runs the whole grid (126 cells, and the
/// false-alarm programme for 60 s at every loop delay), as `foldback-probe --feedback-grid` does for
/// docs/presets.md; `FOLDBACK_FEEDBACK_GRID_DELAYS=10,30` runs the programme for 60 s at those delays only,
/// `FOLDBACK_FEEDBACK_GRID_SOURCES=speech,flute` only those programmes.
final class StageGridTests: XCTestCase {
    private var isFull: Bool { ProcessInfo.processInfo.environment["FOLDBACK_FEEDBACK_GRID"] == "full" }

    /// MSG + 6 dB from 1 s: without the unit the loop howls; with it the first notch comes within 200 ms of the
    /// ring becoming audible, within 1 % of the ring's frequency, and the loudest 50 ms of the last 2 s is 20 dB under the howl.
    func testEveryCellIsCaughtAndSettles() throws {
        let cells = isFull ? StageSweep.fullGrid : StageSweep.representativeCells
        print(StageCellResult.header)
        for cell in cells {
            let result = try StageSweep.run(cell)
            print(result.row)
            let name = "\(cell.delayMS) ms + \(cell.period) at \(cell.sampleRate) Hz, \(StageSweep.roomNames[cell.room])"
            XCTAssertGreaterThan(result.howlDB, -10, "\(name): howls without the unit")
            XCTAssertLessThanOrEqual(result.timeToNotch, 0.2, name)
            XCTAssertLessThanOrEqual(result.settleDB, -20, name)
            XCTAssertLessThanOrEqual(abs(result.frequencyErrorPercent), 1, name)
        }
    }

    /// Voice, chord, noise, a sung note with vibrato, espeak-ng speech, a held organ chord, a flute with slow
    /// vibrato and a sine sweep, through each room's loop at MSG − 3 dB: no notch deeper than 3 dB. 20 s each
    /// at 20 ms + 256 frames, 48 kHz; with the full grid 60 s each at every delay.
    func testProgrammeAtThreeDecibelsUnderMSGPlacesNoDeepNotch() throws {
        let rate = 48_000.0
        let speech = try ProgrammeSources.espeakSpeech()
        var sources: [(String, (Int) -> Float)] = [
            ("voice", StageMeasurements.source(.voice(level: -24), sampleRate: rate)),
            ("chord", StageMeasurements.source(.chord(level: -24), sampleRate: rate)),
            ("noise", StageMeasurements.source(.noise(seed: 3, level: -24), sampleRate: rate)),
            ("sung note", StageMeasurements.sungNote(sampleRate: rate, level: -24)),
            ("organ chord", ProgrammeSources.organ(sampleRate: rate)),
            ("flute", ProgrammeSources.flute(sampleRate: rate)),
            ("sine sweep", ProgrammeSources.sweep(sampleRate: rate)),
        ]
        if let speech { sources.append(("speech", ProgrammeSources.speech(speech, sampleRate: rate))) }
        if let only = ProcessInfo.processInfo.environment["FOLDBACK_FEEDBACK_GRID_SOURCES"]?.split(separator: ",").map(String.init) {
            sources.removeAll { !only.contains($0.0) }
        }
        let chosen = ProcessInfo.processInfo.environment["FOLDBACK_FEEDBACK_GRID_DELAYS"]?.split(separator: ",").compactMap { Double($0) }
        let delays = chosen ?? (isFull ? StageSweep.delays : [20])
        let seconds = isFull || chosen != nil ? 60.0 : 20
        for room in StageSweep.rooms.indices {
            for delay in delays {
                let cell = StageCell(delayMS: delay, period: 256, sampleRate: rate, room: room)
                let model = cell.roomModel
                let msg = model.maximumStableGain(sampleRate: rate).gainDB
                let noise = StageSweep.roomNoise(sampleRate: rate)
                for (name, source) in sources {
                    let unit = FeedbackUnit(runsWorker: false)
                    let stage = try SimulatedStage(room: model, sampleRate: rate, unit: unit, maxFrames: 256)
                    _ = stage.run(frames: Int(seconds * rate), blockSize: 256, source: { source($0) + noise($0) }, loopGainDB: { _ in msg - 3 })
                    let deepest = unit.events.map(\.notch.depthDB).min() ?? 0
                    print("\(StageSweep.roomNames[room]), loop \(fmt(cell.loopMS)) ms at MSG − 3 dB, \(name), \(Int(seconds)) s: deepest notch \(deepest) dB",
                          unit.events.prefix(4).map { "\(Int($0.notch.frequency)) Hz \($0.notch.depthDB) dB @\(fmt($0.time)) s" })
                    XCTAssertGreaterThanOrEqual(deepest, -3, "\(name) in the \(StageSweep.roomNames[room]) room, \(delay) ms")
                }
            }
        }
    }
}
