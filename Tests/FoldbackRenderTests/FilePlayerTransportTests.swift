// A file source's own transport: start stopped, play on from where it stopped, locate, cue, on awkward block sizes.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation
import XCTest

extension FilePlayerStreamTests {
    func testPlayStopLocateAndCueMoveThroughTheFileWhereAsked() throws {
        let frames = 96_000   // each frame of the 2 s ramp says where it is: frame n is (n + 1) / 96000
        func frameHeard(_ sample: Float) -> Int { Int((sample * Float(frames)).rounded()) - 1 }
        let helper = self
        let ramp = (0..<frames).map { Float($0 + 1) / Float(frames) }
        let url = try helper.writeFile("ramp.wav", rate: 48_000, channels: [ramp])
        let player = try FilePlayerStream(url: url, channels: 1, loops: false, gainDB: 0, isPlaying: false)   // autostart = false
        defer { player.close() }
        var marks: [String: Int] = [:]
        let output = try helper.play(player, frames: 72_000) { done in
            func once(_ name: String, at frame: Int, _ action: () -> Void) {
                guard done >= frame, marks[name] == nil else { return }
                marks[name] = done
                action()
            }
            once("play", at: 4_800) { player.resume() }
            once("stop", at: 19_200) { player.pause() }
            once("play again", at: 28_800) { player.resume() }
            once("locate", at: 38_400) { player.locate(seconds: 1.5) }
            once("cue", at: 52_800) { player.stop() }
            once("play from the top", at: 62_400) { player.resume() }
        }[0]
        guard let play = marks["play"], let stop = marks["stop"], let again = marks["play again"], let locate = marks["locate"],
              let cue = marks["cue"], let top = marks["play from the top"] else { return XCTFail("\(marks)") }
        XCTAssertEqual(output[..<play].map(abs).max(), 0, "autostart = false: silent until played")
        XCTAssertEqual(frameHeard(output[play]), 0, "played from the top")
        XCTAssertEqual(frameHeard(output[stop - 1]), stop - 1 - play, "plays on frame by frame")
        XCTAssertEqual(output[stop..<again].map(abs).max(), 0, "stopped")
        XCTAssertEqual(frameHeard(output[again]), stop - play, "plays on from the frame where it stopped")
        XCTAssertEqual(frameHeard(output[locate]), 72_000, "located to 1.5 s")
        XCTAssertEqual(frameHeard(output[cue - 1]), 72_000 + cue - 1 - locate)
        XCTAssertEqual(output[cue..<top].map(abs).max(), 0, "cued: stopped")
        XCTAssertEqual(frameHeard(output[top]), 0, "cued to the top")
        XCTAssertEqual(player.underrunCount, 0)
    }
}
