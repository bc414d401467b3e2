// OSC /foldback/strip/<strip>/unit/<id>/save and /foldback/bus/<bus>/unit/<id>/save: a ring-out's notches written into the preset; wrong units refused. Non-realtime.
@testable import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation
import XCTest

final class FeedbackUnitSaveTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!

    /// A ring-out `feedback` unit `id` as a `[[table]]` (`strip.unit` or `bus.unit`) with one saved notch.
    private static func ringOut(_ table: String, id: String, frequency: Int, cut: Int, q: Int) -> String {
        "  [[\(table)]]\n  type = \"feedback\"\n  id = \"\(id)\"\n  mode = \"ringout\"\n"
            + "  [[\(table).band]]\n  type = \"peak\"\n  freq_hz = \(frequency)\n  gain_db = \(cut)\n  q = \(q)\n"
    }

    private let preset = ControlFixtures.preset.replacingOccurrences(of: "  [[strip.send]]\n  bus = \"main\"\n",
        with: ringOut("strip.unit", id: "fbx", frequency: 2540, cut: -9, q: 16) + "  [[strip.send]]\n  bus = \"main\"\n")

    /// Sends `address` (`…/unit/<id>/save`) to a router over `text` saved as `name`; checks the reply
    /// (`…/saved s file s report`, one notch) and returns the file's text and the preset it loads as.
    private func save(_ text: String, name: String, address: String) throws -> (text: String, preset: Preset) {
        let path = try ControlFixtures.write(text, name: name)
        let router = ControlRouter(target: try OfflineTarget(text: text, path: path))
        let replies = router.handle(OSCMessage(address), from: peer)
        XCTAssertEqual(replies.first?.path, address + "d", "\(replies)")
        XCTAssertEqual(replies.first?.arguments.first?.text, path)
        XCTAssertTrue(replies.first?.arguments.last?.text?.contains("1 feedback notches") ?? false, "\(replies)")
        return (try String(contentsOfFile: path, encoding: .utf8), try PresetLoader.load(path: path))
    }

    /// Each of `refusals` (address, what the error says) gets an error reply from a router over `text`.
    private func assertRefused(_ text: String, _ refusals: [(String, String)]) throws {
        let router = ControlRouter(target: try OfflineTarget(text: text))
        for (address, fragment) in refusals {
            let replies = router.handle(OSCMessage(address), from: peer)
            XCTAssertEqual(replies.first?.path, OSCServer.errorPath, address)
            XCTAssertTrue(replies.first?.arguments.last?.text?.contains(fragment) ?? false, "\(replies)")
        }
    }

    func testARingOutSavesItsNotchesAsBands() throws {
        let saved = try save(preset, name: "soundcheck.toml", address: "/foldback/strip/vox/unit/fbx/save").preset
        let unit = try XCTUnwrap(saved.strips[0].units.first { $0.id == "fbx" })
        XCTAssertEqual(unit.bands.map(\.band.frequency), [2540])
        XCTAssertEqual(unit.bands.map(\.band.gainDB), [-9])
    }

    func testOnlyAFeedbackUnitOfAKnownStripSavesItself() throws {
        try assertRefused(preset, [("/foldback/strip/vox/unit/comp/save", "only a feedback unit saves itself"),
                                   ("/foldback/strip/vox/unit/nope/save", "has no unit 'nope'"),
                                   ("/foldback/strip/gtr/unit/fbx/save", "no strip named 'gtr'")])
    }

    /// A wedge bus's ring-out (`[[bus.unit]]`) saves through `/foldback/bus/<bus>/unit/<id>/save` as `[[bus.unit.band]]`.
    private let busPreset = ControlFixtures.preset.replacingOccurrences(of: "gain_db = -3.0\n", with: "gain_db = -3.0\n"
        + "  [[bus.unit]]\n  type = \"gain\"\n  id = \"trim\"\n" + ringOut("bus.unit", id: "fb", frequency: 820, cut: -12, q: 10))

    func testABusRingOutSavesItsNotchesAsBusBands() throws {
        let (text, saved) = try save(busPreset, name: "wedge-check.toml", address: "/foldback/bus/iem/unit/fb/save")
        XCTAssertTrue(text.contains("[[bus.unit.band]]"), text)
        let unit = try XCTUnwrap(saved.buses.first { $0.name == "iem" }?.units.first { $0.id == "fb" })
        XCTAssertEqual(unit.bands.map(\.band.frequency), [820])
        XCTAssertEqual(unit.bands.map(\.band.gainDB), [-12])
        try assertRefused(busPreset, [("/foldback/bus/iem/unit/trim/save", "only a feedback unit saves itself"),
                                      ("/foldback/bus/iem/unit/nope/save", "bus 'iem' has no unit 'nope'"),
                                      ("/foldback/bus/wedge/unit/fb/save", "no bus named 'wedge'; buses: main, iem")])
    }
}
