// OSC's MIDI-learn commands against an offline engine: arm, bind by the next CC, cancel, save, refusals. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation
import XCTest

final class MIDILearnCommandTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!

    func testLearnBindsTheNextControllerAndSaveWritesIt() throws {
        let target = try OfflineTarget()
        let midi = MIDIController(preset: target.currentPreset, engine: target.engine)
        let router = ControlRouter(target: target, midi: midi)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/midi/learn", [.string("bus.main.gain_db")]), from: peer),
                       [OSCMessage("/foldback/midi/learn/armed", [.string("bus.main.gain_db")])])
        XCTAssertEqual(midi.armedTarget, MIDITarget(parsing: "bus.main.gain_db"))
        midi.handle(MIDIMessage(status: 0xB4, data1: 21, data2: 127))   // channel 5, CC 21, full up
        XCTAssertNil(midi.armedTarget, "one controller is learned, then learning stops")
        XCTAssertEqual(target.engine.parameterChangeCount, 1, "and the moved controller already drives the bus")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("learn-\(getpid()).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(router.handle(OSCMessage("/foldback/midi/save", [.string(path)]), from: peer),
                       [OSCMessage("/foldback/midi/saved", [.string(path)])])
        let saved = try PresetLoader.load(path: path)
        let learned = try XCTUnwrap(saved.midi.controls.first { $0.controller == 21 })
        XCTAssertEqual(learned.channel, 5)
        XCTAssertEqual(learned.target, MIDITarget(parsing: "bus.main.gain_db"))
    }

    func testCancelAndRefusals() throws {
        let target = try OfflineTarget()
        let midi = MIDIController(preset: target.currentPreset, engine: target.engine)
        let router = ControlRouter(target: target, midi: midi)
        _ = router.handle(OSCMessage("/foldback/midi/learn", [.string("strip.vox.pan")]), from: peer)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/midi/learn/cancel"), from: peer), [OSCMessage("/foldback/midi/learn/cancelled")])
        XCTAssertNil(midi.armedTarget)
        for (message, fragment) in [
            (OSCMessage("/foldback/midi/learn", [.string("strip.gtr.gain_db")]), "gtr"),
            (OSCMessage("/foldback/midi/learn", [.string("nonsense")]), "is not a MIDI target"),
            (OSCMessage("/foldback/midi/learn", [.float(1)]), "takes one string"),
            (OSCMessage("/foldback/midi/teach"), "MIDI commands"),
        ] {
            let replies = router.handle(message, from: peer)
            XCTAssertEqual(replies.first?.path, OSCServer.errorPath, "\(message.path) is refused")
            XCTAssertTrue(replies.first?.arguments.last?.text?.contains(fragment) ?? false, "\(replies) mentions \(fragment)")
        }
        XCTAssertNil(midi.armedTarget, "a refused learn arms nothing")
        let without = ControlRouter(target: target)
        XCTAssertTrue(without.handle(OSCMessage("/foldback/midi/learn", [.string("strip.vox.pan")]), from: peer)
            .first?.arguments.last?.text?.contains("MIDI control is not running") ?? false)
    }
}
