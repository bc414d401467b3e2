// Recall scope of a song change: live moves kept unless the next song's file changes them, safes (bus, strip, unit, paths, setlist) honoured. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import XCTest

final class RecallScopeTests: XCTestCase {
    /// A band song: guitar, keys (with a compressor) and vocal into front of house and the singer's ears. The
    /// arguments are what songs differ by; `extra` goes into `[preset]`, `busSafe` marks the singer's bus recall-safe.
    private static func song(
        gtrDB: Double = 0, gtrEarDB: Double = -10, keysDB: Double = 0, threshold: Double = -20, voxDB: Double = 0,
        keysSafe: Bool = false, compSafe: Bool = false, busSafe: Bool = false, safePaths: String? = nil
    ) -> String {
        """
        \(safePaths.map { "[preset]\nrecall_safe = \($0)\n" } ?? "")
        [[bus]]
        name = "foh"
        channels = 1
        limiter = false
        [[bus]]
        name = "iem_vox"
        channels = 1
        limiter = false
        recall_safe = \(busSafe)
        [[strip]]
        name = "gtr"
        gain_db = \(gtrDB)
        send = [{ bus = "foh", gain_db = -3.0 }, { bus = "iem_vox", gain_db = \(gtrEarDB), pre_fader = true }]
        [[strip]]
        name = "keys"
        gain_db = \(keysDB)
        recall_safe = \(keysSafe)
        send = [{ bus = "foh" }, { bus = "iem_vox", gain_db = -6.0, pre_fader = true }]
          [[strip.unit]]
          type = "compressor"
          id = "comp"
          threshold_db = \(threshold)
          recall_safe = \(compSafe)
        [[strip]]
        name = "vox"
        gain_db = \(voxDB)
        send = [{ bus = "foh" }]

        """
    }

    private let peer = OSCPeer(host: "127.0.0.1", port: 9)!

    private func set(_ router: ControlRouter, _ moves: [(String, OSCArgument)]) {
        for (path, value) in moves {
            XCTAssertEqual(router.handle(OSCMessage("/foldback/" + path, [value]), from: peer), [], path)
        }
    }

    private func value(_ router: ControlRouter, _ path: String) -> Float? {
        router.parameterTree?.node(at: path).map(router.value(of:))
    }

    private func linear(_ decibels: Float) -> Float { Decibels.linearGain(fromDecibels: decibels) }

    func testASongChangeKeepsLiveMovesTheNextFileDoesNotChangeAndTakesWhatItDoes() throws {
        let target = try OfflineTarget(text: Self.song())
        let router = ControlRouter(target: target)
        // Song 1, live: the guitar up in the singer's ears, the keys' send to FOH off, the vocal muted, the guitar fader up.
        set(router, [("strip/gtr/send/iem_vox/gain_db", .float(-7)), ("strip/keys/send/foh/mute", .int(1)), ("strip/vox/mute", .int(1)),
                     ("strip/gtr/gain_db", .float(2))])
        let next = try ControlFixtures.write(Self.song(gtrDB: -4), name: "song2.toml")   // song 2 changes the guitar's fader alone
        let report = try target.switchPreset(toPath: next)

        XCTAssertEqual(value(router, "strip/gtr/send/iem_vox/gain_db"), -7, "a send move kept")
        XCTAssertEqual(value(router, "strip/keys/send/foh/mute"), 1, "a moved send mute kept")
        XCTAssertEqual(value(router, "strip/vox/mute"), 1, "a moved strip mute kept")
        XCTAssertEqual(value(router, "strip/gtr/gain_db"), -4, "the parameter the new song changes: taken")
        // Measured: DC 0.5 into one strip at a time, at FOH (output 0) and the singer's ears (output 1).
        let gtr = target.lastSamples(dc: [0.5, 0, 0], outputs: 2)
        XCTAssertEqual(gtr[1], 0.5 * linear(-7), accuracy: 1e-5, "guitar in the ears at the singer's −7 dB")
        XCTAssertEqual(gtr[0], 0.5 * linear(-4) * linear(-3), accuracy: 1e-5, "guitar at FOH through song 2's −4 dB fader")
        let keys = target.lastSamples(dc: [0, 0.02, 0], outputs: 2)   // −34 dBFS: under the compressor's threshold
        XCTAssertEqual(keys[0], 0, accuracy: 1e-7, "keys still out of FOH")
        XCTAssertEqual(keys[1], 0.02 * linear(-6), accuracy: 1e-5, "keys in the ears as the file says")
        XCTAssertEqual(target.lastSamples(dc: [0, 0, 0.5], outputs: 2)[0], 0, accuracy: 1e-7, "vocal still muted")

        let recall = try XCTUnwrap(target.lastRecall)
        XCTAssertEqual(recall.changed.map(\.path), ["strip/gtr/gain_db"])
        XCTAssertEqual(Set(recall.kept.map(\.path)), ["strip/gtr/send/iem_vox/gain_db", "strip/keys/send/foh/mute", "strip/vox/mute"])
        XCTAssertTrue(report.contains("recalled 1 (strip/gtr/gain_db 2 → -4 dB); kept 3 live moves (strip/gtr/send/iem_vox/gain_db -7 dB"), report)
        let reply = router.handle(OSCMessage("/foldback/preset/recall/get"), from: peer)
        XCTAssertEqual(reply.first?.arguments.prefix(3), [.string("changes"), .int(1), .int(3)], "\(reply)")
    }

    func testKeptMovesAreJudgedAgainstTheLastFileLoadedNotTheCarriedValues() throws {
        let target = try OfflineTarget(text: Self.song())
        let router = ControlRouter(target: target)
        set(router, [("strip/gtr/send/iem_vox/gain_db", .float(-7))])
        for name in ["two.toml", "three.toml"] {   // two more songs with the file's −10 dB: the move stays
            _ = try target.switchPreset(toPath: try ControlFixtures.write(Self.song(), name: name))
            XCTAssertEqual(value(router, "strip/gtr/send/iem_vox/gain_db"), -7, name)
        }
        _ = try target.switchPreset(toPath: try ControlFixtures.write(Self.song(gtrEarDB: -12), name: "four.toml"))
        XCTAssertEqual(value(router, "strip/gtr/send/iem_vox/gain_db"), -12, "song 4's file changes the send: taken")
        XCTAssertEqual(target.lastSamples(dc: [0.5, 0, 0], outputs: 2)[1], 0.5 * linear(-12), accuracy: 1e-5)
    }

    func testSafesKeepLiveValuesTheNextSongChanges() throws {
        let target = try OfflineTarget(text: Self.song())
        let router = ControlRouter(target: target)
        set(router, [("strip/gtr/send/iem_vox/gain_db", .float(-7)), ("strip/keys/gain_db", .float(-5)),
                     ("strip/keys/unit/comp/threshold_db", .float(-25)), ("strip/vox/gain_db", .float(-1)), ("strip/gtr/gain_db", .float(3))])
        target.recall.safes = RecallSafes(paths: ["strip/gtr/gain_db"])   // a setlist's recall_safe
        // Song 2 changes every one of them, but marks the singer's bus, the keys strip, the compressor and the vocal's fader safe.
        let next = Self.song(gtrDB: -6, gtrEarDB: -12, keysDB: -9, threshold: -30, voxDB: -8, keysSafe: true, compSafe: true, busSafe: true,
                             safePaths: "[\"strip/vox/gain_db\"]")
        _ = try target.switchPreset(toPath: try ControlFixtures.write(next, name: "safe.toml"))
        XCTAssertEqual(value(router, "strip/gtr/send/iem_vox/gain_db"), -7, "a send into a recall-safe bus")
        XCTAssertEqual(value(router, "strip/keys/gain_db"), -5, "a recall-safe strip")
        XCTAssertEqual(value(router, "strip/keys/unit/comp/threshold_db"), -25, "a recall-safe unit")
        XCTAssertEqual(value(router, "strip/vox/gain_db"), -1, "a path in [preset] recall_safe")
        XCTAssertEqual(value(router, "strip/gtr/gain_db"), 3, "a path in the setlist's recall_safe")
        XCTAssertTrue(target.lastRecall?.kept.allSatisfy(\.isSafe) == true)
        XCTAssertEqual(target.lastSamples(dc: [0.5, 0, 0], outputs: 2)[1], 0.5 * linear(-7), accuracy: 1e-5)

        // Without the safes, the same song recalls each of them.
        target.recall.safes = RecallSafes()
        _ = try target.switchPreset(toPath: try ControlFixtures.write(Self.song(), name: "plain.toml"))
        XCTAssertEqual(value(router, "strip/gtr/send/iem_vox/gain_db"), -10)
        XCTAssertEqual(value(router, "strip/keys/gain_db"), 0)
        XCTAssertEqual(value(router, "strip/keys/unit/comp/threshold_db"), -20)
        XCTAssertEqual(value(router, "strip/gtr/gain_db"), 0)
    }

    func testFullRecallTakesEveryValueButTheSafes() throws {
        let target = try OfflineTarget(text: Self.song())
        let router = ControlRouter(target: target)
        target.recall.mode = .full
        set(router, [("strip/gtr/send/iem_vox/gain_db", .float(-7)), ("strip/keys/send/foh/mute", .int(1)), ("strip/vox/gain_db", .float(-2))])
        _ = try target.switchPreset(toPath: try ControlFixtures.write(Self.song(safePaths: "[\"strip/vox\"]"), name: "full.toml"))
        XCTAssertEqual(value(router, "strip/gtr/send/iem_vox/gain_db"), -10, "full recall: the file's")
        XCTAssertEqual(value(router, "strip/keys/send/foh/mute"), 0, "full recall: the file's")
        XCTAssertEqual(value(router, "strip/vox/gain_db"), -2, "a safe strip survives a full recall")
        XCTAssertEqual(target.lastRecall?.mode, .full)
    }

    func testASetlistReadsItsRecallScopeAndSafes() throws {
        let song = try ControlFixtures.write(Self.song(), name: "one.toml")
        let folder = (song as NSString).deletingLastPathComponent
        let text = "[setlist]\nrecall = \"full\"\nrecall_safe = [\"bus/iem_vox\", \"strip/gtr/send/iem_vox\"]\n[[song]]\npreset = \"one.toml\"\n"
        let setlist = try SetlistLoader.parse(text, path: folder + "/show.toml")
        XCTAssertEqual(setlist.recall, .full)
        XCTAssertEqual(setlist.recallSafe.paths, ["bus/iem_vox", "strip/gtr/send/iem_vox"])
        XCTAssertEqual(setlist.recallSafeLocations.map(\.line), [3, 3])
        XCTAssertEqual(try SetlistLoader.parse("[[song]]\npreset = \"one.toml\"\n", path: folder + "/plain.toml").recall, .changes, "the default")
        XCTAssertThrowsError(try SetlistLoader.parse("[setlist]\nrecall = \"chnages\"\n[[song]]\npreset = \"one.toml\"\n", path: folder + "/bad.toml")) { error in
            XCTAssertTrue("\(error)".contains("bad.toml:2:10: error: 'recall' = \"chnages\" is not one of \"changes\" or \"full\"; did you mean \"changes\"?"), "\(error)")
        }
    }
}
