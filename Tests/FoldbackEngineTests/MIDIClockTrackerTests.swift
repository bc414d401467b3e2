// MIDI clock followed in fixed-size state: the tempo from tick frame times, block by block, with jitter, start/stop and pauses. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class MIDIClockTrackerTests: XCTestCase {
    /// Feeds ticks at `bpm` (each at its frame, rounded down, plus a ±`jitter`-frame pseudo-random offset) in blocks of
    /// `block` frames for `beats` quarter notes; returns the tracker's tempo after each beat.
    static func follow(bpm: Double, sampleRate: Double, block: Int, beats: Int, jitter: Int = 0) -> [Double?] {
        let tracker = MIDIClockTracker()
        defer { tracker.destroy() }
        let interval = 60 * sampleRate / (24 * bpm)
        var ticks = (0..<(24 * beats)).map { Int((Double($0) * interval).rounded(.down)) }
        var seed: UInt32 = 7
        for index in ticks.indices where jitter > 0 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            ticks[index] = max(0, ticks[index] + Int(seed >> 16) % (2 * jitter + 1) - jitter)
        }
        var tempi: [Double?] = []
        var next = 0, start = 0
        tracker.receive(0xFA, offset: 0)
        while next < ticks.count {
            while next < ticks.count, ticks[next] < start + block {
                tracker.receive(0xF8, offset: ticks[next] - start)
                next += 1
                if next % 24 == 0 { tempi.append(tracker.tempo(sampleRate: sampleRate)) }
            }
            tracker.advance(frames: block)
            start += block
        }
        return tempi
    }

    /// 96 BPM at 44.1, 48 and 96 kHz in blocks of 1, 7, 253 and 1024 frames: after the first beat the tempo is within
    /// 0.05 BPM (a 1/8 of 312.5 ms within 0.2 ms), and with ±32 frames of jitter on every tick within 0.25 BPM (1 ms).
    func testClockAt96BPMGivesTheTempoWithinABeat() {
        for sampleRate in [44_100.0, 48_000.0, 96_000.0] {
            for block in [1, 7, 253, 1024] {
                let exact = Self.follow(bpm: 96, sampleRate: sampleRate, block: block, beats: 2)
                for tempo in exact { XCTAssertEqual(tempo ?? 0, 96, accuracy: 0.05, "\(sampleRate) Hz, block \(block)") }
                let jittered = Self.follow(bpm: 96, sampleRate: sampleRate, block: block, beats: 2, jitter: 32)
                for tempo in jittered {
                    XCTAssertEqual(tempo ?? 0, 96, accuracy: 0.25, "jitter, \(sampleRate) Hz, block \(block)")
                    XCTAssertEqual(60_000 / 2 / (tempo ?? 1), 312.5, accuracy: 1, "1/8 in ms")
                }
            }
        }
    }

    /// Stop clears the tempo; a new start follows the new clock at once; a pause of more than 8 ticks starts afresh.
    func testStopStartAndAPauseStartAfresh() {
        let tracker = MIDIClockTracker()
        defer { tracker.destroy() }
        XCTAssertNil(tracker.tempo(sampleRate: 48_000))
        tracker.receive(0xFA, offset: 0)
        XCTAssertTrue(tracker.isRunning)
        for tick in 0..<24 { tracker.receive(0xF8, offset: tick * 1000) }   // 120 BPM at 48 kHz
        XCTAssertEqual(tracker.tempo(sampleRate: 48_000) ?? 0, 120, accuracy: 1e-9)
        tracker.receive(0xFC, offset: 24_000)
        XCTAssertFalse(tracker.isRunning)
        XCTAssertNil(tracker.tempo(sampleRate: 48_000))
        tracker.advance(frames: 100_000)
        for tick in 0..<3 { tracker.receive(0xF8, offset: tick * 1250) }   // 96 BPM
        XCTAssertEqual(tracker.tempo(sampleRate: 48_000) ?? 0, 96, accuracy: 1e-9)
        tracker.advance(frames: 200_000)   // a pause: the next ticks are a new history
        for tick in 0..<2 { tracker.receive(0xF8, offset: tick * 1000) }
        XCTAssertEqual(tracker.tempo(sampleRate: 48_000) ?? 0, 120, accuracy: 1e-9)
        XCTAssertEqual(tracker.tickCount, 29)
    }
}
