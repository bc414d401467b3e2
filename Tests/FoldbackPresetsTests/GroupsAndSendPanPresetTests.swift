// `[[strip.send]] pan`, `[[dca]]` and `[[mute_group]]`: decoded, in the graph and the parameter tree, written back, checked with positions.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class GroupsAndSendPanPresetTests: XCTestCase {
    private let text = """
        [[bus]]
        name = "iem"
        [[bus]]
        name = "wedge"
        channels = 1
        [[strip]]
        name = "kick"
          [[strip.send]]
          bus = "iem"
          pan = -0.5
          pre_fader = true
          [[strip.send]]
          bus = "wedge"
        [[strip]]
        name = "snare"
          [[strip.send]]
          bus = "iem"
        [[dca]]
        name = "drums"
        strips = ["kick", "snare"]
        gain_db = -3
        [[mute_group]]
        name = "band"
        strips = ["snare"]
        mute = true

        """

    func testKeysReachTheGraphAndTheTree() throws {
        let preset = try PresetLoader.parse(text, path: "groups.toml")
        XCTAssertEqual(preset.strips[0].sends[0].pan, -0.5)
        XCTAssertNil(preset.strips[1].sends[0].pan)
        let description = try PresetGraphBuilder.description(for: preset)
        XCTAssertEqual(description.strips[0].sends[0].pan, -0.5)
        XCTAssertEqual(description.dcas, [DCADescription(name: "drums", strips: [0, 1], gainDB: -3)])
        XCTAssertEqual(description.muteGroups, [MuteGroupDescription(name: "band", strips: [1], isMuted: true)])
        let tree = ParameterTree(preset: preset)
        XCTAssertEqual(tree.node(at: "strip/kick/send/iem/pan")?.address, .sendPan(strip: 0, send: 0))
        XCTAssertEqual(tree.node(at: "strip/kick/send/iem/pan")?.presetValue, -0.5)
        XCTAssertEqual(tree.node(at: "strip/snare/send/iem/pan")?.presetValue, 0, "follows the strip pan")
        XCTAssertNil(tree.node(at: "strip/kick/send/wedge/pan"), "no pan into a mono bus")
        XCTAssertEqual(tree.node(at: "dca/drums/gain_db")?.address, .dcaGain(dca: 0))
        XCTAssertEqual(tree.node(at: "dca/drums/mute")?.address, .dcaMute(dca: 0))
        XCTAssertEqual(tree.node(at: "mute_group/band/mute")?.presetValue, 1)
        XCTAssertEqual(MIDITarget(parsing: "dca.drums.gain_db")?.path, "dca/drums/gain_db")
        XCTAssertEqual(MIDITarget(parsing: "strip.kick.send.iem.pan")?.path, "strip/kick/send/iem/pan")
    }

    func testWrittenPresetReadsBackTheSame() throws {
        let preset = try PresetLoader.parse(text, path: "groups.toml")
        let again = try PresetLoader.parse(PresetWriter.text(for: preset), path: "again.toml")
        XCTAssertEqual(again.strips[0].sends[0].pan, -0.5)
        XCTAssertNil(again.strips[1].sends[0].pan)
        XCTAssertEqual(again.dcas.map(\.strips), [["kick", "snare"]])
        XCTAssertEqual(again.dcas.map(\.gainDB), [-3])
        XCTAssertEqual(again.muteGroups.map(\.isMuted), [true])
    }

    func testAPanIntoAMonoBusIsWarnedAbout() throws {
        let mono = text.replacingOccurrences(of: "  bus = \"wedge\"\n", with: "  bus = \"wedge\"\n  pan = 0.5\n")
        let preset = try PresetLoader.parse(mono, path: "mono.toml")
        XCTAssertTrue(preset.warnings.contains { "\($0)".contains("'pan' on a send into mono bus 'wedge'") }, "\(preset.warnings)")
    }

    func testAnUnknownMemberIsAnErrorAtItsPosition() {
        let bad = text.replacingOccurrences(of: "strips = [\"snare\"]", with: "strips = [\"snair\"]")
        XCTAssertThrowsError(try PresetLoader.parse(bad, path: "bad.toml")) { error in
            XCTAssertTrue("\(error)".contains("unknown strip 'snair'"), "\(error)")
            XCTAssertTrue("\(error)".contains("snare"), "suggests the spelling: \(error)")
        }
    }

    /// What preset save and an NSM session save write: live send pans and group moves land in the model.
    func testLiveValuesAreSavedIntoThePreset() throws {
        let preset = try PresetLoader.parse(text, path: "groups.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let live: [ParameterAddress: Float] = [.sendPan(strip: 1, send: 0): 0.3, .dcaGain(dca: 0): -6, .dcaMute(dca: 0): 1, .muteGroup(group: 0): 0]
        let (saved, skipped) = preset.applying(live, graph: graph)
        XCTAssertEqual(skipped, [])
        XCTAssertEqual(saved.strips[1].sends[0].pan, 0.3)
        XCTAssertEqual(saved.dcas[0].gainDB, -6)
        XCTAssertEqual(saved.dcas[0].isMuted, true)
        XCTAssertEqual(saved.muteGroups[0].isMuted, false)
    }
}
