// `[stage]` players and a binaural bus's `listener`: default send positions computed from where players stand, explicit
// send values kept, saved and read back, and refused with file:line:column. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest
@testable import FoldbackPresets

final class StagePlotPresetTests: XCTestCase {
    /// The bassist at stage right of centre (x 2 m) facing the audience; the drummer upstage centre (3 m back), the singer
    /// downstage centre (1 m front), the keys at x −3 m turned 90° to face the centre. The bassist's bus lists the
    /// drums with an explicit distance.
    private let text = """
        [[bus]]
        name = "iem_bass"
        binaural = true
        listener = "bass"
        [[bus]]
        name = "iem_keys"
        binaural = true
        listener = "keys"
        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "iem_bass"
          [[strip.send]]
          bus = "iem_keys"
        [[strip]]
        name = "drums"
        channels = 2
          [[strip.send]]
          bus = "iem_bass"
          distance_m = 2.0
          [[strip.send]]
          bus = "iem_keys"
        [[strip]]
        name = "bass"
          [[strip.send]]
          bus = "iem_bass"
          elevation_deg = -20
        [[strip]]
        name = "click"
          [[strip.send]]
          bus = "iem_bass"
          azimuth_deg = 0
        [[stage.player]]
        name = "bass"
        x_m = 2
        y_m = 0
        strips = ["bass"]
        [[stage.player]]
        name = "drums"
        x_m = 0
        y_m = 3
        strips = ["drums"]
        [[stage.player]]
        name = "vox"
        x_m = 0
        y_m = -1
        strips = ["vox"]
        [[stage.player]]
        name = "keys"
        x_m = -3
        y_m = 0
        facing_deg = -90

        """

    private func position(_ preset: Preset, _ strip: String, _ bus: String) -> BinauralPosition? {
        preset.strip(named: strip)?.sends.first { $0.busName == bus }?.position
    }

    /// Angles from positions: for the bassist (facing the audience, right hand to −x), the drummer at (−2, 3) relative
    /// is atan2(2, −3) = 146.31° (behind, right) at 3.61 m, but the send's own 2 m wins; the singer at (−2, −1) is
    /// atan2(2, 1) = 63.43° at 2.24 m; the bass itself ahead at 0.5 m keeping its −20° elevation; the click (on no
    /// player) stays as written. For the keys player (turned to face +x), the singer at (3, −1) is atan2(1, 3) = 18.43°
    /// at 3.16 m and the drums at (3, 3) are atan2(−3, 3) = −45° at 4.24 m.
    func testSendsDefaultToWhereTheirPlayersStandRelativeToTheListener() throws {
        let preset = try PresetLoader.parse(text, path: "stage.toml")
        let drums = try XCTUnwrap(position(preset, "drums", "iem_bass"))
        XCTAssertEqual(drums.azimuthDeg, 146.31, accuracy: 0.01)
        XCTAssertEqual(drums.distanceM, 2, "the send's own distance wins")
        let vox = try XCTUnwrap(position(preset, "vox", "iem_bass"))
        XCTAssertEqual(vox.azimuthDeg, 63.43, accuracy: 0.01)
        XCTAssertEqual(vox.distanceM, 2.24, accuracy: 0.01)
        let bass = try XCTUnwrap(position(preset, "bass", "iem_bass"))
        XCTAssertEqual([bass.azimuthDeg, bass.elevationDeg, bass.distanceM], [0, -20, StagePlot.ownDistanceM])
        let click = try XCTUnwrap(position(preset, "click", "iem_bass"))
        XCTAssertEqual([click.azimuthDeg, click.distanceM], [0, 1], "a strip no player holds keeps its own values")
        let keysVox = try XCTUnwrap(position(preset, "vox", "iem_keys"))
        XCTAssertEqual(keysVox.azimuthDeg, 18.43, accuracy: 0.01)
        XCTAssertEqual(keysVox.distanceM, 3.16, accuracy: 0.01)
        let keysDrums = try XCTUnwrap(position(preset, "drums", "iem_keys"))
        XCTAssertEqual(keysDrums.azimuthDeg, -45, accuracy: 0.01)
        XCTAssertEqual(keysDrums.distanceM, 4.24, accuracy: 0.01)
    }

    /// Saved and read again: the same positions, the plot and the listeners kept.
    func testTheStagePlotIsSavedAndReadBack() throws {
        let preset = try PresetLoader.parse(text, path: "stage.toml")
        let again = try PresetLoader.parse(PresetWriter.text(for: preset), path: "again.toml")
        XCTAssertEqual(again.stage?.players.map(\.name), ["bass", "drums", "vox", "keys"])
        XCTAssertEqual(again.stage?.players.last?.facingDeg, -90)
        XCTAssertEqual(again.bus(named: "iem_bass")?.listener, "bass")
        for strip in ["vox", "drums", "bass"] {
            XCTAssertEqual(position(again, strip, "iem_bass"), position(preset, strip, "iem_bass"), strip)
        }
    }

    /// An unknown listener, a listener on a plain bus, a strip on two players, an unknown strip and a player without
    /// a place: each an error at its line and column.
    func testMistakesAreErrorsAtTheirLineAndColumn() {
        let wrong = text
            .replacingOccurrences(of: "listener = \"keys\"", with: "listener = \"kyes\"")
            .replacingOccurrences(of: "strips = [\"vox\"]", with: "strips = [\"vox\", \"bass\", \"voc\"]")
            .replacingOccurrences(of: "x_m = -3\n", with: "")
            + "[[bus]]\nname = \"main\"\nlistener = \"bass\"\n"
        let errors = diagnostics(of: wrong).filter { $0.severity == .error }.map(\.description)
        XCTAssertEqual(errors, [
            "test.toml:8:12: error: no stage player named 'kyes'; did you mean 'keys'?",
            "test.toml:47:18: error: strip 'bass' already stands with player 'bass'; a strip has one place on stage",
            "test.toml:47:26: error: unknown strip 'voc'; did you mean 'vox'?",
            "test.toml:48:1: error: a [[stage.player]] needs 'x_m' and 'y_m', where it stands (metres; the audience at the bottom)",
            "test.toml:54:1: error: 'listener' places a binaural bus's sources from the stage plot; add binaural = true to bus 'main' or remove 'listener'",
        ], "\(errors)")
    }

    /// A listener without any `[stage]` is an error at the listener.
    func testAListenerNeedsAStage() {
        let bare = String(text[..<text.range(of: "[[stage.player]]")!.lowerBound])
        let errors = diagnostics(of: bare).filter { $0.severity == .error }.map(\.description)
        XCTAssertEqual(errors.first, "test.toml:4:12: error: bus 'iem_bass' names listener 'bass', but the preset has no [stage] with its players")
        XCTAssertEqual(errors.count, 2)
    }
}
