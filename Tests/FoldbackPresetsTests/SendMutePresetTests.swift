// `[[strip.send]] mute`: decoded, in the graph, the parameter tree and MIDI targets, saved and read back; recall safes decoded and checked.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class SendMutePresetTests: XCTestCase {
    private let text = """
        [preset]
        recall_safe = ["strip/keys/send/foh", "bus/iem/gain_db"]
        [[bus]]
        name = "foh"
        [[bus]]
        name = "iem"
        [[strip]]
        name = "keys"
        recall_safe = false
          [[strip.unit]]
          type = "compressor"
          id = "comp"
          recall_safe = true
          [[strip.send]]
          bus = "foh"
          gain_db = -4.0
          mute = true
          [[strip.send]]
          bus = "iem"

        """

    func testSendMuteReachesTheGraphTheTreeAndMIDI() throws {
        let preset = try PresetLoader.parse(text, path: "mute.toml")
        XCTAssertEqual(preset.strips[0].sends.map(\.isMuted), [true, false])
        XCTAssertEqual(preset.strips[0].sends[0].gainDB, -4, "the level is kept beside the mute")
        XCTAssertEqual(try PresetGraphBuilder.description(for: preset).strips[0].sends.map(\.isMuted), [true, false])
        let tree = ParameterTree(preset: preset)
        let node = try XCTUnwrap(tree.node(at: "strip/keys/send/foh/mute"))
        XCTAssertEqual(node.address, .sendMute(strip: 0, send: 0))
        XCTAssertEqual(node.presetValue, 1)
        XCTAssertTrue(node.isSwitch)
        XCTAssertEqual(node.musicianBus, "foh", "the bus's musician may switch sends into it")
        XCTAssertEqual(tree.node(at: "strip/keys/send/iem/mute")?.presetValue, 0)
        XCTAssertEqual(MIDITarget(parsing: "strip.keys.send.iem.mute")?.path, "strip/keys/send/iem/mute")
    }

    func testSavedSendMuteAndSafesReadBack() throws {
        let preset = try PresetLoader.parse(text, path: "mute.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let (saved, skipped) = preset.applying([.sendMute(strip: 0, send: 0): 0, .sendMute(strip: 0, send: 1): 1], graph: graph)
        XCTAssertEqual(skipped, [])
        let again = try PresetLoader.parse(PresetWriter.text(for: saved), path: "again.toml")
        XCTAssertEqual(again.strips[0].sends.map(\.isMuted), [false, true])
        XCTAssertEqual(again.recallSafe.paths, ["strip/keys/send/foh", "bus/iem/gain_db"])
        XCTAssertEqual(again.strips[0].units[0].isRecallSafe, true)
        XCTAssertEqual(again.strips[0].isRecallSafe, false)
    }

    func testRecallSafeCoversStripsUnitsBusesAndPaths() throws {
        var preset = try PresetLoader.parse(text, path: "mute.toml")
        XCTAssertTrue(preset.isRecallSafe("strip/keys/send/foh/mute"), "a listed send folder")
        XCTAssertTrue(preset.isRecallSafe("strip/keys/unit/comp/threshold_db"), "a recall-safe unit")
        XCTAssertTrue(preset.isRecallSafe("bus/iem/gain_db"), "a listed path")
        XCTAssertFalse(preset.isRecallSafe("bus/iem/mute"))
        XCTAssertFalse(preset.isRecallSafe("strip/keys/gain_db"))
        XCTAssertFalse(preset.isRecallSafe("strip/keys/send/iem/gain_db"))
        preset.buses[1].isRecallSafe = true
        XCTAssertTrue(preset.isRecallSafe("strip/keys/send/iem/gain_db"), "a send into a recall-safe bus")
        XCTAssertTrue(preset.isRecallSafe("bus/iem/mute"))
        preset.strips[0].isRecallSafe = true
        XCTAssertTrue(preset.isRecallSafe("strip/keys/gain_db"), "a recall-safe strip")
        XCTAssertFalse(RecallSafes(paths: ["strip/key"]).covers("strip/keys/gain_db"), "a path covers whole parts only")
    }

    func testARecallSafePathNamingNothingIsAnErrorAtItsLocation() throws {
        let wrong = text.replacingOccurrences(of: "\"bus/iem/gain_db\"", with: "\"strip/kyes\"")
        XCTAssertThrowsError(try PresetLoader.parse(wrong, path: "wrong.toml")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("wrong.toml:2:39"), message)
            XCTAssertTrue(message.contains("recall_safe path 'strip/kyes' names no parameter of this preset; did you mean 'strip/keys'?"), message)
        }
    }
}
