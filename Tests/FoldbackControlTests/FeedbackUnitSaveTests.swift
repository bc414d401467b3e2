// OSC /foldback/strip/<strip>/unit/<id>/save and /foldback/bus/<bus>/unit/<id>/save: a ring-out's notches written into the preset; wrong units refused. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// A unit built live with two saved notches: it saves nothing until its `mode` is switched to ringout over OSC
    /// (the parameter path MIDI and the web share), then saves its notches as a unit built as ring-out does;
    /// `…/notch/<n>/clear` takes them out one by one, and the next save leaves the cleared one out.
    func testAUnitSwitchedToRingOutLiveSavesItsNotchesAndClearsThemOneByOne() throws {
        let unit = Self.ringOut("strip.unit", id: "fbx", frequency: 2540, cut: -9, q: 16).replacingOccurrences(of: "ringout", with: "live")
            + "  [[strip.unit.band]]\n  type = \"peak\"\n  freq_hz = 820\n  gain_db = -12\n  q = 10\n"
        let text = ControlFixtures.preset.replacingOccurrences(of: "  [[strip.send]]\n  bus = \"main\"\n",
                                                              with: unit + "  [[strip.send]]\n  bus = \"main\"\n")
        let path = try ControlFixtures.write(text, name: "switched.toml")
        let target = try OfflineTarget(text: text, path: path)
        let router = ControlRouter(target: target)
        let save = { router.handle(OSCMessage("/foldback/strip/vox/unit/fbx/save"), from: self.peer).first?.arguments.last?.text ?? "" }
        XCTAssertTrue(save().contains("0 feedback notches"), "a live unit keeps nothing")
        XCTAssertEqual(router.handle(OSCMessage("/foldback/strip/vox/unit/fbx/mode", [.float(0)]), from: peer), [])
        target.engine.renderCycle(frames: 64)
        XCTAssertTrue(save().contains("2 feedback notches"), "switched to ringout, it saves as one built so")
        XCTAssertEqual(try PresetLoader.load(path: path).strips[0].units.first { $0.id == "fbx" }?.bands.map(\.band.frequency), [2540, 820])

        XCTAssertEqual(router.handle(OSCMessage("/foldback/strip/vox/unit/fbx/notch/1/clear"), from: peer), [])
        let deadline = Date().addingTimeInterval(10)
        while activeNotches(target) != 1, Date() < deadline { target.engine.renderCycle(frames: 64) }
        XCTAssertEqual(activeNotches(target), 1, "the worker cleared notch 1")
        XCTAssertTrue(save().contains("1 feedback notches"))
        XCTAssertEqual(try PresetLoader.load(path: path).strips[0].units.first { $0.id == "fbx" }?.bands.map(\.band.frequency), [820])
        for (address, fragment) in [("/foldback/strip/vox/unit/fbx/notch/1/clear", "has no notch 1 in place"),
                                    ("/foldback/strip/vox/unit/fbx/notch/17/clear", "notch numbers are 1 … 16"),
                                    ("/foldback/strip/vox/unit/comp/notch/2/clear", "only a feedback unit has notches"),
                                    ("/foldback/strip/gtr/unit/fbx/notch/2/clear", "no strip named 'gtr'")] {
            let replies = router.handle(OSCMessage(address), from: peer)
            XCTAssertEqual(replies.first?.path, OSCServer.errorPath, address)
            XCTAssertTrue(replies.first?.arguments.last?.text?.contains(fragment) ?? false, "\(replies)")
        }
    }

    /// The `notches_active` reading of strip vox's unit fbx.
    private func activeNotches(_ target: OfflineTarget) -> Float? {
        target.engine.meters().units.first { $0.strip == "vox" && $0.unit == "fbx" }?.readings.first { $0.key == "notches_active" }?.value
    }
}
