// Recall-safe buses: the running sends, level and mute of a musician's bus carried into the next preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import XCTest

final class RecallSafeMixesTests: XCTestCase {
    private static func song(recallSafe: Bool, voxSendDB: Double, extraStrip: Bool = false) -> String {
        """
        [[bus]]
        name = "main"
        [[bus]]
        name = "iem"
        gain_db = -2.0
        recall_safe = \(recallSafe)
        [[strip]]
        name = "vox"
        send = [{ bus = "main" }, { bus = "iem", gain_db = \(voxSendDB) }]
        \(extraStrip ? "[[strip]]\nname = \"keys\"\nsend = [{ bus = \"iem\", gain_db = -9.0 }]\n" : "")
        """
    }

    func testARecallSafeBusKeepsItsRunningMixAndEverythingElseIsTheNewPresets() throws {
        let target = try OfflineTarget(text: Self.song(recallSafe: true, voxSendDB: -3))
        let router = ControlRouter(target: target)
        let peer = try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9))
        for (path, value) in [("strip/vox/send/iem/gain_db", Float(-7.5)), ("bus/iem/gain_db", -4), ("bus/iem/mute", 1), ("strip/vox/send/main/gain_db", -20)] {
            XCTAssertEqual(router.handle(OSCMessage("/foldback/" + path, [.float(value)]), from: peer), [])
        }
        let next = try PresetLoader.parse(Self.song(recallSafe: true, voxSendDB: 0, extraStrip: true), path: "/tmp/next.toml")
        let carried = RecallSafeMixes.carry(into: next, from: target)
        let iem = try XCTUnwrap(carried.bus(named: "iem"))
        XCTAssertEqual(iem.gainDB, -4, "the bus level as set")
        XCTAssertTrue(iem.isMuted)
        XCTAssertEqual(carried.strip(named: "vox")?.sends.first { $0.busName == "iem" }?.gainDB, -7.5, "the musician's send level")
        XCTAssertEqual(carried.strip(named: "vox")?.sends.first { $0.busName == "main" }?.gainDB, 0, "main is not recall-safe: the new preset's")
        XCTAssertEqual(carried.strip(named: "keys")?.sends.first?.gainDB, -9, "a strip new in this song: the new preset's")
        XCTAssertNil(carried.strip(named: "vox")?.sends.first { $0.busName == "iem" }?.pan, "a send never panned keeps following its strip")

        XCTAssertEqual(router.handle(OSCMessage("/foldback/strip/vox/send/iem/pan", [.float(-0.75)]), from: peer), [])
        let panned = RecallSafeMixes.carry(into: next, from: target)
        XCTAssertEqual(panned.strip(named: "vox")?.sends.first { $0.busName == "iem" }?.pan, -0.75, "the musician's send pan")
        XCTAssertNil(panned.strip(named: "vox")?.sends.first { $0.busName == "main" }?.pan, "main is not recall-safe")

        let plain = try PresetLoader.parse(Self.song(recallSafe: false, voxSendDB: 0), path: "/tmp/plain.toml")
        XCTAssertEqual(RecallSafeMixes.carry(into: plain, from: target).strip(named: "vox")?.sends.last?.gainDB, 0, "without recall_safe: reset")
        XCTAssertEqual(RecallSafeMixes.carry(into: plain, from: target).bus(named: "iem")?.gainDB, -2)
    }

    func testRecallSafeIsWrittenBackAndReadAgain() throws {
        let preset = try PresetLoader.parse(Self.song(recallSafe: true, voxSendDB: -3), path: "/tmp/song.toml")
        let again = try PresetLoader.parse(PresetWriter.text(for: preset), path: "/tmp/again.toml")
        XCTAssertEqual(again.buses.map(\.isRecallSafe), [false, true])
    }

    func testARecallSafeBusKeepsAStereoSendsWidthOnceMoved() throws {
        let text = "[[bus]]\nname = \"iem\"\nrecall_safe = true\n[[strip]]\nname = \"keys\"\nchannels = 2\nsend = [{ bus = \"iem\" }]\n"
        let target = try OfflineTarget(text: text)
        let next = try PresetLoader.parse(text, path: "/tmp/next.toml")
        XCTAssertNil(RecallSafeMixes.carry(into: next, from: target).strips[0].sends[0].width, "a width never moved stays unwritten")
        let peer = try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9))
        XCTAssertEqual(ControlRouter(target: target).handle(OSCMessage("/foldback/strip/keys/send/iem/width", [.float(0.25)]), from: peer), [])
        XCTAssertEqual(RecallSafeMixes.carry(into: next, from: target).strips[0].sends[0].width, 0.25, "the musician's width")
    }
}
