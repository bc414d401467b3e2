// The simulated stage without the unit: below the maximum stable gain the loop rings out, above it it howls. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
import FoldbackFeedbackTesting
import XCTest

final class SimulatedStageTests: XCTestCase {
    func testLoopHowlsOnlyAboveMaximumStableGain() throws {
        for sampleRate in [44_100.0, 48_000, 96_000] {
            let room = RoomModel()
            let (msg, frequency) = room.maximumStableGain(sampleRate: sampleRate)
            print("stage \(Int(sampleRate)) Hz: maximum stable gain \(msg) dB at \(frequency) Hz")
            let frames = Int(3 * sampleRate)
            for (excess, howls) in [(-2.0, false), (2.0, true)] {
                let stage = try SimulatedStage(room: room, sampleRate: sampleRate, unit: nil, maxFrames: 64)
                let out = stage.run(frames: frames, blockSize: 64, source: StageMeasurements.roomNoise(sampleRate: sampleRate),
                                    loopGainDB: { _ in msg + excess })
                let tail = StageMeasurements.levelDB(out, frames - Int(0.5 * sampleRate)..<frames)
                print("  loop gain MSG \(excess) dB: last 0.5 s at \(tail) dBFS")
                if howls { XCTAssertGreaterThan(tail, -10, "howls at \(excess) dB over MSG") } else { XCTAssertLessThan(tail, -45) }
            }
        }
    }
}
