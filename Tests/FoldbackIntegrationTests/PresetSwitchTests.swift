// Preset switching on a running `foldback run`: 200 crossfaded switches, broken presets, --watch, SIGHUP, setlists. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import Foundation
import XCTest

final class PresetSwitchTests: JACKServerTestCase {
    /// 220 Hz at −6 dBFS peak (0.5): its steepest step is 0.5 · 2π · 220 / 48000 ≈ 0.0144 per sample.
    private let sine = TestSignal.sine(frequency: 220, level: -6)

    func testTwoHundredSwitchesUnderSignalNeverJumpOrDropAndKeepConnections() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let (plain, withKeys) = (folder + "/a.toml", folder + "/b.toml")
        try LiveControlRig.writePreset(to: plain, voxGainDB: 0)
        try LiveControlRig.writePreset(to: withKeys, voxGainDB: -1, extra: "[[strip]]\nname = \"keys\"\n  [[strip.send]]\n  bus = \"main\"\n")
        let rig = try LiveControlRig(server: serverName, arguments: [plain], signal: sine, capacity: 24_000, testCase: self)
        defer { rig.close() }
        let name = rig.clientName

        let first = try XCTUnwrap(try rig.request("/foldback/preset/load", [.string(withKeys)]))
        XCTAssertEqual(first.path, "/foldback/preset/loaded", "\(first)")
        XCTAssertTrue(first.arguments.last?.text?.contains("ports added: keys_in") == true, "\(first)")
        XCTAssertTrue(rig.lister.portNames(matching: "^\(name):").contains("\(name):keys_in"))

        let switches = SwitchProgress()
        let switchClient = try OSCClient(serverPort: rig.oscPort)
        let switcher = Thread {
            for index in 1..<200 {
                let path = index % 2 == 0 ? withKeys : plain
                let reply = try? switchClient.request(OSCMessage("/foldback/preset/load", [.string(path)]), timeout: 10)
                switches.record(reply?.path == "/foldback/preset/loaded" ? nil : "switch \(index + 1): \(String(describing: reply))")
            }
        }
        switcher.start()
        // Record half-second takes while the switches run; judge every take without an xrun.
        // Equal-power fades of this sine (gains 1 and −1 dB) peak below 0.68, so no honest step exceeds 0.03;
        // a dropped or stale cycle jumps by far more, and a quiet 256-frame stretch (over one period) is a dropout.
        var judged = 0, worstStep: Float = 0, quietest: Float = 1
        while switches.done < 199 {
            let xruns = rig.client.recorder.xrunCount
            let take = try rig.client.recorder.record(frames: 24_000, timeout: 10).channels[0]
            guard rig.client.recorder.xrunCount == xruns else { continue }
            judged += 1
            for index in 1..<take.count { worstStep = max(worstStep, abs(take[index] - take[index - 1])) }
            for start in stride(from: 0, to: take.count - 256, by: 64) {
                let energy = take[start..<start + 256].reduce(Float(0)) { $0 + $1 * $1 }
                quietest = min(quietest, (energy / 256).squareRoot())
            }
        }
        XCTAssertEqual(switches.failures, [], "every switch was acknowledged")
        XCTAssertGreaterThanOrEqual(judged, 3, "enough xrun-free takes during the switches")
        XCTAssertLessThan(worstStep, 0.03, "largest sample-to-sample step during \(judged) takes")
        XCTAssertGreaterThan(quietest, 0.25, "lowest 256-frame RMS (the sine is 0.354, 0.316 at −1 dB): no dropout")

        // 200 switches end on the plain preset: keys_in is gone, vox_in and main kept their connections.
        XCTAssertFalse(rig.lister.portNames(matching: "^\(name):").contains("\(name):keys_in"))
        XCTAssertEqual(rig.lister.connections(ofPort: "\(name):vox_in"), rig.client.player.ports.map(\.name))
        XCTAssertEqual(rig.lister.connections(ofPort: "\(name):main"), rig.client.recorder.ports.map(\.name))
        XCTAssertEqual(decibels(try rig.measuredGain()), 0, accuracy: 0.1)
        XCTAssertTrue(rig.run.standardError.contains("JACK server shut down") == false)
    }

    /// A switch that only moves another strip's fader keeps vox's LV2 delay line (swh delay_c, 0.5 s) running:
    /// with a fresh instance the delayed sine would stop for 0.5 s after the switch; continued, no 256-frame
    /// stretch of a 1 s take around the switch drops below 0.25 RMS (the sine's is 0.354).
    func testASwitchKeepsAnUnchangedPluginsDelayLineRunning() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let delay = "[[strip.unit]]\ntype = \"lv2\"\nid = \"fx\"\nuri = \"http://plugin.org.uk/swh-plugins/delay_c\"\ncontrols = { delay_time = 0.5 }\n"
        let keys = { (gain: Int) in "[[strip]]\nname = \"keys\"\ngain_db = \(gain)\n  [[strip.send]]\n  bus = \"main\"\n" }
        let (before, after) = (folder + "/a.toml", folder + "/b.toml")
        try LiveControlRig.writePreset(to: before, voxGainDB: 0, extra: delay + keys(0))
        try LiveControlRig.writePreset(to: after, voxGainDB: 0, extra: delay + keys(-6))
        let rig = try LiveControlRig(server: serverName, arguments: [before], signal: sine, capacity: 48_000, testCase: self)
        defer { rig.close() }
        _ = try rig.client.recorder.record(frames: 36_000, timeout: 10)   // 0.75 s: the delay line is full

        let switchClient = try OSCClient(serverPort: rig.oscPort)
        let reply = SwitchReply()
        let switcher = Thread {
            usleep(250_000)
            reply.set(try? switchClient.request(OSCMessage("/foldback/preset/load", [.string(after)]), timeout: 10))
        }
        let takeStart = Date()
        switcher.start()
        let take = try rig.client.recorder.record(frames: 48_000, timeout: 10).channels[0]
        let takeEnd = Date()
        let message = try XCTUnwrap(reply.wait(), "the switch was answered")
        XCTAssertEqual(message.message?.path, "/foldback/preset/loaded", "\(String(describing: message.message))")
        XCTAssertTrue(message.message?.arguments.last?.text?.contains("kept running: vox/fx") == true, "\(String(describing: message.message))")
        XCTAssertTrue(takeStart < message.time && message.time < takeEnd, "the switch happened during the take")
        var quietest: Float = 1
        for start in stride(from: 0, to: take.count - 256, by: 64) {
            quietest = min(quietest, (take[start..<start + 256].reduce(Float(0)) { $0 + $1 * $1 } / 256).squareRoot())
        }
        XCTAssertGreaterThan(quietest, 0.25, "lowest 256-frame RMS around the switch: the delayed sine carried on")
    }

    func testABrokenPresetFromOSCOrWatchIsReportedAndTheOldOneKeepsPlaying() throws {
        let (rig, preset) = try LiveControlRig.watchingLivePreset(server: serverName, testCase: self)
        defer { rig.close() }
        let folder = (preset as NSString).deletingLastPathComponent

        let broken = folder + "/broken.toml"
        try "[[bus]]\nname = \"main\"\n\n[[strip]]\nname = \"vox\"\npan = 3.0\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let reply = try XCTUnwrap(try rig.request("/foldback/preset/load", [.string(broken)]))
        XCTAssertEqual(reply.path, "/foldback/error")
        XCTAssertTrue(reply.arguments.last?.text?.contains("\(broken):6:") == true, "\(reply)")
        XCTAssertEqual(try rig.request("/foldback/preset/get"), OSCMessage("/foldback/preset", [.string("vox -2.0 dB"), .string(preset)]))
        XCTAssertEqual(decibels(try rig.measuredGain()), -2, accuracy: 0.1, "the old preset plays on after /foldback/preset/load")

        // Saved broken: --watch reports it and keeps playing; saved fixed: --watch switches to it.
        try "[[bus]]\nname = \"main\"\nchannels = 1\nlimiter = false\n[[strip]]\nname = \"vox\"\ngain_db = \"loud\"\n".write(toFile: preset, atomically: true, encoding: .utf8)
        try rig.waitForLog("not reloading \(preset) (the file changed)")
        XCTAssertTrue(rig.run.standardError.contains("\(preset):7:"), rig.run.standardError)
        XCTAssertEqual(decibels(try rig.measuredGain()), -2, accuracy: 0.1, "the old preset plays on after a broken save")
        try LiveControlRig.writePreset(to: preset, voxGainDB: -7)
        try rig.waitForLog("reloaded \(preset) (the file changed)")
        XCTAssertEqual(decibels(try rig.measuredGain()), -7, accuracy: 0.1, "the fixed save is live")
    }

    func testSetlistNextAndPreviousSwitchSongsAndSIGHUPReloadsTheCurrentOne() throws {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/one.toml", voxGainDB: 0)
        try LiveControlRig.writePreset(to: folder + "/two.toml", voxGainDB: -6)
        let setlist = folder + "/show.toml"
        try """
            [setlist]
            name = "Show"
            [[song]]
            name = "One"
            preset = "one.toml"
            [[song]]
            name = "Two"
            preset = "two.toml"
            """.write(toFile: setlist, atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(server: serverName, arguments: ["--setlist", setlist], testCase: self)
        defer { rig.close() }
        XCTAssertEqual(try rig.request("/foldback/setlist/get"), OSCMessage("/foldback/setlist", [.int(1), .int(2), .string("One")]))
        XCTAssertEqual(decibels(try rig.measuredGain()), 0, accuracy: 0.1)
        XCTAssertEqual(try rig.request("/foldback/setlist/next"), OSCMessage("/foldback/setlist", [.int(2), .int(2), .string("Two")]))
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "song two")
        XCTAssertEqual(try rig.request("/foldback/setlist/next")?.path, "/foldback/error", "no song after the last")

        try LiveControlRig.writePreset(to: folder + "/two.toml", voxGainDB: -3)
        kill(rig.run.process.processIdentifier, SIGHUP)
        try rig.waitForLog("reloaded \(folder)/two.toml (SIGHUP)")
        XCTAssertEqual(decibels(try rig.measuredGain()), -3, accuracy: 0.1, "SIGHUP reloaded song two's file")

        XCTAssertEqual(try rig.request("/foldback/setlist/prev"), OSCMessage("/foldback/setlist", [.int(1), .int(2), .string("One")]))
        XCTAssertEqual(decibels(try rig.measuredGain()), 0, accuracy: 0.1, "back to song one")

        // A MIDI program change selects a song too: program 1 is the second entry.
        let sender = try JACKTestMIDISender(name: "\(rig.clientName)-midi", serverName: serverName)
        defer { sender.close() }
        XCTAssertNil(sender.connect(to: "\(rig.clientName):midi_in"))
        XCTAssertTrue(sender.send(MIDIMessage(status: 0xC0, data1: 1)))
        XCTAssertTrue(sender.waitUntilSent())
        try rig.waitForLog("foldback: MIDI /foldback/setlist/select: switched to ")
        XCTAssertEqual(try rig.request("/foldback/setlist/get"), OSCMessage("/foldback/setlist", [.int(2), .int(2), .string("Two")]))
        XCTAssertEqual(decibels(try rig.measuredGain()), -3, accuracy: 0.1, "program change 1 selected song two")
    }
}

/// The reply to a switch made on another thread, and when it came.
private final class SwitchReply: @unchecked Sendable {
    private let condition = NSCondition()
    private var reply: (message: OSCMessage?, time: Date)?

    func set(_ message: OSCMessage?) {
        condition.withLock {
            reply = (message, Date())
            condition.broadcast()
        }
    }

    /// The reply, waiting up to 15 s for it.
    func wait() -> (message: OSCMessage?, time: Date)? {
        condition.withLock {
            let deadline = Date().addingTimeInterval(15)
            while reply == nil && condition.wait(until: deadline) {}
            return reply
        }
    }
}

/// How far the switching thread has got, read by the recording thread.
private final class SwitchProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var problems: [String] = []

    /// Counts one switch, with its problem if it had one.
    func record(_ problem: String?) {
        lock.withLock {
            count += 1
            if let problem { problems.append(problem) }
        }
    }

    var done: Int { lock.withLock { count } }
    var failures: [String] { lock.withLock { problems } }
}
