// The OSC address space against an offline engine: sets, queries, error replies, presets and setlists. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation
import Synchronization
import XCTest

final class ControlRouterTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!

    private func reply(_ router: ControlRouter, _ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] {
        router.handle(OSCMessage(path, arguments), from: peer)
    }

    private func assertError(_ replies: [OSCMessage], _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(replies.count, 1, "one reply", file: file, line: line)
        XCTAssertEqual(replies.first?.path, OSCServer.errorPath, "\(replies)", file: file, line: line)
        let reason = replies.first?.arguments.last?.text ?? ""
        XCTAssertTrue(reason.contains(fragment), "'\(reason)' should mention '\(fragment)'", file: file, line: line)
    }

    func testQueriesAnswerThePresetValueUntilSetThenTheSetValue() throws {
        let target = try OfflineTarget()
        let router = ControlRouter(target: target)
        XCTAssertEqual(reply(router, "/foldback/strip/vox/gain_db/get"), [OSCMessage("/foldback/strip/vox/gain_db", [.float(-2)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/pan/get"), [OSCMessage("/foldback/strip/vox/pan", [.float(0.25)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/mute/get"), [OSCMessage("/foldback/strip/vox/mute", [.int(0)])])
        XCTAssertEqual(reply(router, "/foldback/bus/iem/gain_db/get"), [OSCMessage("/foldback/bus/iem/gain_db", [.float(-3)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/send/iem/gain_db/get"), [OSCMessage("/foldback/strip/vox/send/iem/gain_db", [.float(3)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/unit/trim/gain_db/get"), [OSCMessage("/foldback/strip/vox/unit/trim/gain_db", [.float(6)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/unit/comp/threshold_db/get"), [OSCMessage("/foldback/strip/vox/unit/comp/threshold_db", [.float(-20)])])

        XCTAssertEqual(reply(router, "/foldback/strip/vox/gain_db", [.float(-7.5)]), [])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/mute", [.int(1)]), [])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/unit/comp/ratio", [.float(8)]), [])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/unit/trim/bypass", [.int(1)]), [])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/gain_db/get"), [OSCMessage("/foldback/strip/vox/gain_db", [.float(-7.5)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/mute/get"), [OSCMessage("/foldback/strip/vox/mute", [.int(1)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/unit/comp/ratio/get"), [OSCMessage("/foldback/strip/vox/unit/comp/ratio", [.float(8)])])
        XCTAssertEqual(target.engine.value(at: .unitBypass(strip: 0, unit: 0)), 1)
        XCTAssertEqual(target.engine.parameterChangeCount, 4)
    }

    func testBadRequestsGetOneErrorReplyAndChangeNothing() throws {
        let target = try OfflineTarget()
        let router = ControlRouter(target: target)
        assertError(reply(router, "/foldback/strip/vox/gain_db", [.float(30)]), "allowed: -inf to 24")
        assertError(reply(router, "/foldback/strip/vox/pan", [.float(1.5)]), "vox/pan = 1.5 is out of range; allowed: -1 to 1")
        assertError(reply(router, "/foldback/strip/vox/mute", [.int(2)]), "allowed: 0 to 1")
        assertError(reply(router, "/foldback/strip/vox/unit/comp/ratio", [.float(0.5)]), "vox/unit/comp/ratio = 0.5 is out of range")
        assertError(reply(router, "/foldback/strip/vox/gain_db", [.string("loud")]), "takes one number")
        assertError(reply(router, "/foldback/strip/vox/gain_db"), "takes one number")
        assertError(reply(router, "/foldback/strip/vox/gain_db", [.float(1), .float(2)]), "takes one number")
        assertError(reply(router, "/foldback/strip/vox/gain_db", [.float(.nan)]), "out of range")
        assertError(reply(router, "/foldback/strip/gtr/gain_db", [.float(0)]), "no strip named 'gtr'; strips: vox")
        assertError(reply(router, "/foldback/strip/vox/volume", [.float(0)]), "no parameter 'volume'")
        assertError(reply(router, "/foldback/strip/vox/send/fx/gain_db", [.float(0)]), "no send to 'fx'; it sends to: main, iem")
        assertError(reply(router, "/foldback/strip/vox/unit/eq/gain_db", [.float(0)]), "no unit 'eq'; its units: trim, comp")
        assertError(reply(router, "/foldback/strip/vox/unit/comp/knee", [.float(0)]), "has no parameter 'knee'; it has: threshold_db")
        assertError(reply(router, "/foldback/bus/side/gain_db", [.float(0)]), "no bus named 'side'; buses: main, iem")
        assertError(reply(router, "/foldback/strip/vox/gain_db/get", [.float(1)]), "takes no arguments")
        assertError(reply(router, "/foldback/nonsense"), "unknown address")
        assertError(reply(router, "/other/thing"), "start with /foldback/")
        assertError(reply(router, "/foldback//strip"), "empty part")
        assertError(reply(router, "/foldback/setlist/next"), "no setlist is running")
        assertError(reply(router, "/foldback/midi/learn", [.string("vox/gain_db")]), "MIDI control is not running")
        assertError(reply(router, "/foldback/meters/subscribe"), "not available")
        XCTAssertEqual(target.engine.parameterChangeCount, 0, "no error changed anything")
        XCTAssertTrue(target.engine.changedValues.isEmpty)
    }

    func testUndecodablePacketsGetAnErrorReply() {
        let handler: OSCServer.Handler = { _, _ in XCTFail("must not be called"); return [] }
        for packet: [UInt8] in [[1, 2, 3], Array("#bundle\0".utf8) + [0, 0, 0, 0, 0, 0, 0, 1], Array("/foldback/x\0".utf8)] {
            let replies = OSCServer.replies(to: packet, from: OSCPeer(host: "127.0.0.1", port: 0)!, handler: handler)
            XCTAssertEqual(replies.first?.path, OSCServer.errorPath, "\(packet)")
        }
    }

    func testCodecRoundTripsEveryArgumentType() throws {
        let message = OSCMessage("/foldback/strip/vox/gain_db", [.float(-3.5), .int(7), .string("hello")])
        XCTAssertEqual(try OSCCodec.decode(OSCCodec.encode(message)), message)
        XCTAssertEqual(try OSCCodec.decode(OSCCodec.encode(OSCMessage("/foldback/ping"))), OSCMessage("/foldback/ping"))
    }

    func testPresetLoadSwitchesAndABrokenOneKeepsTheOldPlaying() throws {
        let target = try OfflineTarget()
        let good = try ControlFixtures.write(ControlFixtures.preset.replacingOccurrences(of: "gain_db = -2.0", with: "gain_db = -9.0"), name: "good.toml")
        let broken = try ControlFixtures.write("[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\npan = 3.0\n", name: "broken.toml")
        let folders = [good, broken].map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        let router = ControlRouter(target: target, files: try FilePathPolicy(folders: folders))
        let replies = reply(router, "/foldback/preset/load", [.string(good)])
        XCTAssertEqual(replies.first?.path, "/foldback/preset/loaded", "\(replies)")
        XCTAssertEqual(reply(router, "/foldback/strip/vox/gain_db/get"), [OSCMessage("/foldback/strip/vox/gain_db", [.float(-9)])])

        assertError(reply(router, "/foldback/preset/load", [.string(broken)]), "broken.toml:5:")
        XCTAssertEqual(target.currentPreset.path, good, "the old preset keeps playing")
        XCTAssertEqual(target.switches.withLock { $0 }, [good])
        assertError(reply(router, "/foldback/preset/load", [.int(3)]), "takes one string")
    }

    func testFileRequestsOutsideTheAllowedFoldersAreRefusedLoggedAndTouchNothing() throws {
        let show = URL(fileURLWithPath: try ControlFixtures.write("", name: "show.toml")).deletingLastPathComponent().path
        let outsider = try ControlFixtures.write(ControlFixtures.preset, name: "outsider.toml")
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("elsewhere-\(UUID().uuidString).toml").path
        let target = try OfflineTarget(path: show + "/show.toml")
        let midi = MIDIController(preset: target.currentPreset, engine: target.engine)
        let log = Mutex<[String]>([])
        let router = ControlRouter(target: target, midi: midi) { line in log.withLock { $0.append(line) } }

        assertError(reply(router, "/foldback/preset/load", [.string(outsider)]), "is outside the folders control requests may use (\(show))")
        assertError(reply(router, "/foldback/preset/save", [.string(elsewhere)]), "outside the folders")
        assertError(reply(router, "/foldback/midi/save", [.string(elsewhere)]), "outside the folders")
        assertError(reply(router, "/foldback/midi/save", [.string("../escape.toml")]), "outside the folders")
        assertError(reply(router, "/foldback/midi/save", [.string(show + "/notes.txt")]), "is not a .toml file")
        XCTAssertEqual(target.switches.withLock { $0 }, [], "nothing was loaded")
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere), "nothing was written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: show + "/notes.txt"))
        XCTAssertEqual(log.withLock { $0.filter { $0.contains(" refused: ") }.count }, 5, "\(log.withLock { $0 })")

        XCTAssertEqual(reply(router, "/foldback/midi/save", [.string("saved.toml")]), [OSCMessage("/foldback/midi/saved", [.string(show + "/saved.toml")])],
                       "a relative path is taken from the preset's folder")
        XCTAssertEqual(try PresetLoader.load(path: show + "/saved.toml").strips.map(\.name), ["vox"])
    }
}
