// Tests of a file source's tempo and key while it plays: bit-transparent at 1 and 0, a change heard within 100 ms, no gap, the song position.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import Foundation
import XCTest

extension FilePlayerStreamTests {
    func testTempoOneAndNoShiftPlayTheFileBitForBit() throws {
        let ramp = (0..<20_000).map { Float($0 % 997) / 997 - 0.5 }
        let url = try writeFile("ramp.wav", rate: 48_000, channels: [ramp])
        let player = try FilePlayerStream(url: url, channels: 1, loops: false, gainDB: 0, timePitch: .identity)
        defer { player.close() }
        let output = try play(player, frames: 20_000)[0]
        XCTAssertEqual(output, ramp)
    }

    func testAKeyChangeWhilePlayingIsHeardWithinAHundredMillisecondsWithoutAGap() throws {
        let rate = 48_000.0
        let tone = ToneMeasure.sine(hz: 440, rate: rate, frames: 48_000)
        let url = try writeFile("tone.wav", rate: 48_000, channels: [tone])
        let player = try FilePlayerStream(url: url, channels: 1, loops: true, gainDB: 0, timePitch: TimePitch(tempo: 0.85))
        defer { player.close() }
        let change = 48_000
        let output = try play(player, frames: 120_000) { done in
            if done >= change && player.timePitch.semitones == 0 { player.setTimePitch(TimePitch(tempo: 0.85, semitones: 2)) }
        }[0]
        func frequency(_ range: Range<Int>) -> Double { ToneMeasure.frequency(Array(output[range]), channels: 1, channel: 0, rate: rate) }
        XCTAssertEqual(frequency(24_000..<change), 440, accuracy: 0.44, "before the change, looped across the file's end")
        XCTAssertEqual(frequency((change + 4_800)..<(change + 7_200)), 493.88, accuracy: 4.9, "the new key 100 ms after the change")
        XCTAssertEqual(frequency((change + 9_600)..<120_000), 493.88, accuracy: 0.49)
        for block in stride(from: 4_800, to: 120_000 - 240, by: 240) {
            let peak = output[block..<(block + 240)].map(abs).max() ?? 0
            XCTAssertGreaterThan(peak, 0.3, "no gap at frame \(block)")
        }
        XCTAssertEqual(player.underrunCount, 0)
        let heard = stride(from: change, to: change + 9_600, by: 48).first { frequency($0..<($0 + 1_920)) > 480 }
        print("key change heard after \(((heard ?? 0) - change) * 1000 / 48_000) ms (window 40 ms)")
    }

    func testTheSongPositionFollowsTheTempo() throws {
        let url = try writeFile("tone.wav", rate: 48_000, channels: [ToneMeasure.sine(hz: 440, rate: 48_000, frames: 240_000)])
        let player = try FilePlayerStream(url: url, channels: 1, loops: false, gainDB: 0, timePitch: TimePitch(tempo: 0.5, semitones: -2))
        defer { player.close() }
        _ = try play(player, frames: 96_000)
        XCTAssertEqual(player.songPosition, 1.0, accuracy: 0.05, "two seconds played at half speed are one second of song")
        XCTAssertEqual(player.duration, 5, accuracy: 1e-9)
    }
}
