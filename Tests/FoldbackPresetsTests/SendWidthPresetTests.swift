// `[[strip.send]] width`: decoded, in the graph and the parameter tree (stereo strip into a stereo bus only), saved, warned about where it does nothing.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class SendWidthPresetTests: XCTestCase {
    private let text = """
        [[bus]]
        name = "iem"
        [[strip]]
        name = "keys"
        channels = 2
          [[strip.send]]
          bus = "iem"
          pan = 0.5
          width = 0.4
        [[strip]]
        name = "pads"
        channels = 2
          [[strip.send]]
          bus = "iem"
        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "iem"

        """

    func testWidthReachesTheGraphTheTreeAndMIDI() throws {
        let preset = try PresetLoader.parse(text, path: "width.toml")
        XCTAssertEqual(preset.strips[0].sends[0].width, 0.4)
        XCTAssertNil(preset.strips[1].sends[0].width)
        XCTAssertEqual(try PresetGraphBuilder.description(for: preset).strips[0].sends[0].width, 0.4)
        let tree = ParameterTree(preset: preset)
        XCTAssertEqual(tree.node(at: "strip/keys/send/iem/width")?.address, .sendWidth(strip: 0, send: 0))
        XCTAssertEqual(tree.node(at: "strip/keys/send/iem/width")?.presetValue, 0.4)
        XCTAssertEqual(tree.node(at: "strip/pads/send/iem/width")?.presetValue, 1, "a send without width passes the strip as is")
        XCTAssertEqual(tree.node(at: "strip/pads/send/iem/width")?.descriptor.range, 0...2)
        XCTAssertNil(tree.node(at: "strip/vox/send/iem/width"), "no width for a mono strip")
        XCTAssertEqual(MIDITarget(parsing: "strip.keys.send.iem.width")?.path, "strip/keys/send/iem/width")
    }

    func testWrittenAndSavedWidthReadsBack() throws {
        let preset = try PresetLoader.parse(text, path: "width.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let (saved, skipped) = preset.applying([.sendWidth(strip: 1, send: 0): 1.5], graph: graph)
        XCTAssertEqual(skipped, [])
        let again = try PresetLoader.parse(PresetWriter.text(for: saved), path: "again.toml")
        XCTAssertEqual(again.strips[0].sends[0].width, 0.4)
        XCTAssertEqual(again.strips[1].sends[0].width, 1.5)
        XCTAssertNil(again.strips[2].sends[0].width)
    }

    func testWidthWhereItDoesNothingIsWarnedAndOutOfRangeIsAnError() throws {
        let mono = text + "  width = 0.5\n"   // on the mono vocal's send
        let preset = try PresetLoader.parse(mono, path: "mono.toml")
        XCTAssertTrue(preset.warnings.contains { "\($0)".contains("'width' on a send from a mono strip") }, "\(preset.warnings)")
        let wide = text.replacingOccurrences(of: "width = 0.4", with: "width = 3")
        XCTAssertThrowsError(try PresetLoader.parse(wide, path: "wide.toml")) { error in
            XCTAssertTrue("\(error)".contains("width"), "\(error)")
            XCTAssertTrue("\(error)".contains("wide.toml:"), "names the place: \(error)")
        }
    }
}
