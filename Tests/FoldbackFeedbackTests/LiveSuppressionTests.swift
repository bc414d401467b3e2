// Live mode on the simulated stage: a howl found and pulled down within 200 ms; 6 dB of added stable gain. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
import FoldbackFeedbackTesting
import XCTest

final class LiveSuppressionTests: XCTestCase {
    /// Steps the loop gain from MSG − 6 dB to MSG + `excess` at 1 s; returns the wedge output and the unit.
    private func stepRun(sampleRate: Double, blockSize: Int, excess: Double, withUnit: Bool, seconds: Double = 4)
        throws -> (output: [Float], unit: FeedbackUnit?, msg: Double) {
        let room = RoomModel()
        let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
        let unit = withUnit ? FeedbackUnit(runsWorker: false) : nil
        let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: unit, maxFrames: blockSize)
        let onset = Int(sampleRate)
        let output = stage.run(frames: Int(seconds * sampleRate), blockSize: blockSize,
                               source: StageMeasurements.roomNoise(sampleRate: sampleRate),
                               loopGainDB: { $0 < onset ? msg - 6 : msg + excess })
        return (output, unit, msg)
    }

    /// The loop gain steps 1 or 3 dB past the maximum stable gain at 1 s. Onset: when the unsuppressed
    /// loop's 10 ms level first stands 6 dB above the room before the step (the ring becomes audible).
    func testHowlIsFoundAndPulledDownWithin200ms() throws {
        for (sampleRate, blockSize) in [(48_000.0, 64), (44_100, 7), (96_000, 253)] {
            for excess in [1.0, 3.0] {
                let open = try stepRun(sampleRate: sampleRate, blockSize: blockSize, excess: excess, withUnit: false)
                let tamed = try stepRun(sampleRate: sampleRate, blockSize: blockSize, excess: excess, withUnit: true)
                let howl = StageMeasurements.levelDB(open.output, open.output.count - Int(sampleRate)..<open.output.count)
                let room = StageMeasurements.levelDB(open.output, Int(0.5 * sampleRate)..<Int(sampleRate))
                let onset = try XCTUnwrap(StageMeasurements.firstTime(open.output, sampleRate: sampleRate, from: 1, reaching: room + 6))
                let after = StageMeasurements.maxLevelDB(tamed.output, sampleRate: sampleRate, from: onset + 0.2, to: 4)
                let peak = StageMeasurements.maxLevelDB(tamed.output, sampleRate: sampleRate, from: 1.0, to: 4)
                let events = tamed.unit!.events
                let first = events.first.map { $0.time - onset } ?? .infinity
                print("\(Int(sampleRate)) Hz block \(blockSize) MSG+\(excess) dB: room \(room), onset \(onset) s, howl \(howl) dBFS; with unit first notch \(first) s after onset,"
                      + " peak \(peak), after 200 ms max \(after) dBFS (\(after - howl) dB); notches:",
                      events.map { "\(Int($0.notch.frequency)) Hz \($0.notch.depthDB) dB @\($0.time)" })
                XCTAssertLessThan(first, 0.1)
                XCTAssertLessThan(after - howl, -20)
            }
        }
    }
}

extension LiveSuppressionTests {
    /// The default room with a live feedback unit (its analysis run by the stage), and the room's maximum stable gain.
    func liveStage(sampleRate: Double, maxFrames: Int) throws -> (SimulatedStage, FeedbackUnit, msg: Double) {
        let room = RoomModel()
        let unit = FeedbackUnit(runsWorker: false)
        return (try SimulatedStage(room: room, sampleRate: sampleRate, unit: unit, maxFrames: maxFrames), unit,
                room.maximumStableGain(sampleRate: sampleRate).gainDB)
    }

    /// The howl is notched, then the stage falls digitally silent (no source, no loop): the analysis skips its
    /// spectrum on the all-zero window, yet every notch is still released once the hold (10 s) has passed since
    /// its ring was last heard, and not before.
    func testANotchIsReleasedAfterTheHoldWhileTheInputIsDigitalSilence() throws {
        let sampleRate = 48_000.0
        let (stage, unit, msg) = try liveStage(sampleRate: sampleRate, maxFrames: 256)
        let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
        let silence = Int(2.5 * sampleRate)
        _ = stage.run(frames: Int(16 * sampleRate), blockSize: 256,
                      source: { $0 < silence ? noise($0) : 0 },
                      loopGainDB: { $0 < Int(sampleRate) ? msg - 6 : ($0 < silence ? msg + 3 : -.infinity) })
        let placed = unit.events.filter { $0.notch.depthDB < 0 }
        let released = unit.events.filter { $0.notch.depthDB == 0 }
        XCTAssertFalse(placed.isEmpty, "the howl was notched")
        XCTAssertFalse(released.isEmpty, "released in the silence: \(unit.events.map { "\($0.notch.depthDB) dB @\($0.time)" })")
        XCTAssertEqual(Set(released.map(\.notch.slot)), Set(placed.map(\.notch.slot)), "every notch released")
        for release in released {   // 10 s after the ring was last heard: after its placement, before the silence's start + 11 s
            let placedAt = try XCTUnwrap(placed.first { $0.notch.slot == release.notch.slot }).time
            XCTAssertGreaterThanOrEqual(release.time, placedAt + 10)
            XCTAssertLessThan(release.time, 2.5 + 11)
        }
    }
}

extension LiveSuppressionTests {
    /// The engineer pushes the wedge: loop gain from MSG − 6 dB to MSG + 6 dB over 6 s, then held 6 s,
    /// with the singer (the voice test signal) and room noise at the mic. Without the unit the loop howls at
    /// full scale; with it the last 4 s stay 20 dB below that and do not grow.
    func testAddsSixDecibelsOfStableGain() throws {
        for (sampleRate, blockSize) in [(48_000.0, 253), (44_100, 64)] {
            let room = RoomModel()
            let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
            let voice = StageMeasurements.source(.voice(level: -30), sampleRate: sampleRate)
            let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
            let frames = Int(12 * sampleRate)
            let ramp = { (frame: Int) in msg - 6 + 12 * min(Double(frame) / (6 * sampleRate), 1) }
            var outputs: [[Float]] = []
            var unit: FeedbackUnit?
            for withUnit in [false, true] {
                unit = withUnit ? FeedbackUnit(runsWorker: false) : nil
                let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: unit, maxFrames: blockSize)
                outputs.append(stage.run(frames: frames, blockSize: blockSize, source: { voice($0) + noise($0) }, loopGainDB: ramp))
            }
            let howl = StageMeasurements.levelDB(outputs[0], frames - Int(4 * sampleRate)..<frames)
            let tamedMax = StageMeasurements.maxLevelDB(outputs[1], sampleRate: sampleRate, from: 8, to: 12)
            let firstHalf = StageMeasurements.levelDB(outputs[1], frames - Int(4 * sampleRate)..<frames - Int(2 * sampleRate))
            let secondHalf = StageMeasurements.levelDB(outputs[1], frames - Int(2 * sampleRate)..<frames)
            let notches = unit!.notches
            print("\(Int(sampleRate)) Hz block \(blockSize): at MSG + 6 dB without the unit \(fmt(howl)) dBFS; with it max 50 ms level \(fmt(tamedMax)) dBFS,"
                  + " last 2 s vs the 2 s before \(fmt(secondHalf - firstHalf)) dB; \(notches.count) notches:",
                  notches.map { "\(Int($0.frequency)) Hz \($0.depthDB) dB Q \(fmt($0.q))" })
            XCTAssertGreaterThan(howl, -6, "the loop howls without the unit")
            XCTAssertLessThan(tamedMax - howl, -20)
            XCTAssertLessThan(secondHalf - firstHalf, 3)
        }
    }
}

func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

extension LiveSuppressionTests {
    /// `max_depth_db` changed live (through setParameter, as OSC does) limits the next notches.
    func testMaxDepthChangedLiveLimitsTheNotches() throws {
        let sampleRate = 48_000.0
        let (stage, unit, msg) = try liveStage(sampleRate: sampleRate, maxFrames: 64)
        XCTAssertEqual(unit.parameters.map(\.key), ["mode", "max_depth_db", "hold_s"])
        let slot = try XCTUnwrap(stage.unitSlot)
        slot.functions.setParameter(slot.state, 1, -6)
        _ = stage.run(frames: Int(2 * sampleRate), blockSize: 64, source: StageMeasurements.roomNoise(sampleRate: sampleRate),
                      loopGainDB: { $0 < Int(sampleRate) ? msg - 6 : msg + 3 })
        let depths = unit.events.map(\.notch.depthDB)
        XCTAssertFalse(depths.isEmpty)
        XCTAssertEqual(depths.min(), -6, "no notch deeper than the live max_depth_db")
    }
}
