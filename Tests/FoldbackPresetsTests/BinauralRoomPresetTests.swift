// `room` and `room_db` on a binaural bus: decoded, a node of the parameter tree (OSC, the pages), saved when moved, and
// refused with file:line:column where they cannot work.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
@testable import FoldbackPresets
import XCTest

final class BinauralRoomPresetTests: XCTestCase {
    private func preset(room: String) -> String {
        "[[bus]]\nname = \"iem\"\nbinaural = true\n\(room)\n[[strip]]\nname = \"vox\"\nsend = [{ bus = \"iem\", azimuth_deg = 30.0 }]\n"
    }

    /// room_db is the bus's node `bus/iem/room_db` (its musician's too), at the preset's value; a live move is saved
    /// and read back; without a room there is no node.
    func testTheRoomLevelIsATreeNodeSavedWhenMoved() throws {
        let loaded = try PresetLoader.parse(preset(room: "room = true\nroom_db = -7.5"), path: "room.toml")
        XCTAssertEqual(loaded.buses[0].roomDB, -7.5)
        let tree = ParameterTree(preset: loaded)
        let node = try XCTUnwrap(tree.node(at: "bus/iem/room_db"))
        XCTAssertEqual(node.address, .busRoomLevel(bus: 0))
        XCTAssertEqual(node.presetValue, -7.5)
        XCTAssertEqual(node.descriptor.range, -40...6)
        let graph = try PresetGraphBuilder.graph(for: loaded, sampleRate: 48000, maxFrames: 64)
        let (saved, skipped) = loaded.applying([.busRoomLevel(bus: 0): -12], graph: graph)
        XCTAssertEqual(skipped, [])
        let text = PresetWriter.text(for: saved)
        XCTAssertTrue(text.contains("room = true") && text.contains("room_db = -12"), text)
        XCTAssertEqual(try PresetLoader.parse(text, path: "again.toml").buses[0].roomDB, -12)
        let plain = try PresetLoader.parse(preset(room: ""), path: "plain.toml")
        XCTAssertNil(ParameterTree(preset: plain).node(at: "bus/iem/room_db"))
        XCTAssertFalse(PresetReport.render(plain).contains("room"), "no room on foldback check's bus line")
    }

    /// `foldback check` shows the room and its level on the bus's line.
    func testCheckShowsTheRoomOnTheBusLine() throws {
        let report = PresetReport.render(try PresetLoader.parse(preset(room: "room = true\nroom_db = -7.5"), path: "room.toml"))
        let line = try XCTUnwrap(report.split(separator: "\n").first { $0.hasPrefix("Bus 1  iem") })
        XCTAssertTrue(line.hasSuffix("binaural: Debian KEMAR set, room -7.5 dB)"), String(line))
    }

    func testARoomOnABusThatIsNotBinauralIsAnErrorAtItsKey() {
        assertSingleError(
            "[[bus]]\nname = \"wedge\"\nroom = true\n[[strip]]\nname = \"s\"\n", line: 3, column: 1,
            contains: ["'room' adds early reflections and a short tail to a binaural bus; add binaural = true to bus 'wedge'"])
    }

    func testARoomLevelWithoutARoomIsAnErrorAtItsKey() {
        assertSingleError(preset(room: "room_db = -6.0"), line: 4, column: 1, contains: ["add room = true to bus 'iem' or remove 'room_db'"])
    }

    func testARoomLevelOutOfRangeOrNotANumberIsAnError() {
        assertSingleError(preset(room: "room = true\nroom_db = 9.0"), line: 5, column: 11, contains: ["room_db", "9"])
        assertSingleError(preset(room: "room = true\nroom_db = \"loud\""), line: 5, column: 11, contains: ["room_db"])
    }
}
