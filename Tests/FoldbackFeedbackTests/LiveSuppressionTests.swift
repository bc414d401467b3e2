// Live mode on the simulated stage: a howl found and pulled down within 200 ms; 6 dB of added stable gain. Non-realtime.
import FoldbackDSP
import FoldbackFeedback
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
