// The show tempo in a running show: tempo/bpm and tempo/source in the tree, set by the setlist, OSC taps, the engineer's page, a MIDI note, MIDI clock and JACK transport, and followed by every echo. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackJACKTesting
import FoldbackTestSupport
import Foundation
import XCTest

final class ShowTempoEndToEndTests: JACKServerTestCase {
    /// A fresh folder with `echo.toml`: vox → an echo (id `echo`, `sync`, feedback 30 %, then `more` of its keys and
    /// sections after it) → main.
    static func writeEchoPreset(sync: String, more: String = "") throws -> String {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/echo.toml", voxGainDB: 0, extra: """
              [[strip.unit]]
              type = "echo"
              id = "echo"
              sync = "\(sync)"
              feedback = 30
            \(more)
            """)
        return folder
    }

    /// A setlist of one echo preset (vox → 1/4 echo → main): song 1 at 128 BPM, song 2 at 72, song 3 without a bpm.
    static func writeShow() throws -> String {
        let folder = try Self.writeEchoPreset(sync: "1/4")
        try """
            [[song]]
            name = "Opener"
            preset = "echo.toml"
            bpm = 128
            [[song]]
            name = "Ballad"
            preset = "echo.toml"
            bpm = 72
            [[song]]
            name = "Free"
            preset = "echo.toml"
            """.write(toFile: folder + "/show.toml", atomically: true, encoding: .utf8)
        return folder + "/show.toml"
    }

    /// The first song's 128 BPM is the show tempo (`tempo/bpm`, source `setlist`) and the echo's; four OSC taps 500 ms apart
    /// make it 120 on both; the engineer's page sees the tempo, taps (`tempo/tap`) and sets `tempo/bpm` to 100; the next song
    /// (72) retimes the kept echo (the switch reports `kept running: vox/echo`); with `tempo/source` = `tap`, a song's bpm no
    /// longer moves it, and a song without a bpm keeps the show tempo.
    func testTheShowTempoFollowsTheSetlistTapsAndThePageOnEveryEcho() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, arguments: ["--setlist", try Self.writeShow()])
        defer { rig.close() }
        let bpm = "/foldback/tempo/bpm", source = "/foldback/tempo/source", echo = "/foldback/strip/vox/unit/echo/tempo_bpm"
        try rig.waitForValue(bpm, 128)
        try rig.waitForValue(echo, 128)
        try rig.waitForValue(source, 0)

        let replies = try [10.0, 10.5, 11.0, 11.5].map { try rig.request("/foldback/tempo/tap", [.float(Float($0))])?.arguments.first }
        XCTAssertEqual(replies, [.float(128), .float(120), .float(120), .float(120)], "a lone tap leaves 128; the second sets 120")
        try rig.waitForValue(bpm, 120)
        try rig.waitForValue(echo, 120)

        let page = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["engineer"]))")
        let tree = try XCTUnwrap(page.next("tree"))
        let paths = (tree["parameters"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        XCTAssertTrue(paths.contains("tempo/bpm") && paths.contains("tempo/source"), "\(paths)")
        let state = try XCTUnwrap(page.next("state"))
        XCTAssertEqual(state["tempo"] as? String, "♩ 120.0 BPM (tap)")
        page.send(#"{"command":"tempo/tap"}"#)
        XCTAssertNotNil(page.next("ok"), "the page's tap button")
        page.send(#"{"path":"/foldback/tempo/bpm","value":100}"#)
        XCTAssertNotNil(page.next("ok"))
        try rig.waitForValue(echo, 100)

        XCTAssertEqual(try rig.request("/foldback/setlist/next")?.path, "/foldback/setlist")
        try rig.waitForLog("kept running: vox/echo")
        try rig.waitForValue(bpm, 72)
        try rig.waitForValue(echo, 72)

        XCTAssertNil(try rig.request(source, [.string("tap")], timeout: 0.5))
        try rig.waitForValue(source, 1)
        XCTAssertNil(try rig.request(bpm, [.float(90)], timeout: 0.5))
        try rig.waitForValue(echo, 90)
        XCTAssertEqual(try rig.request("/foldback/setlist/next")?.path, "/foldback/setlist")
        try rig.waitForLog("song 3/3")
        try rig.waitForValue(echo, 90)
        XCTAssertEqual(try rig.request("/foldback/setlist/prev")?.path, "/foldback/setlist")
        try rig.waitForLog("song 2/3")
        try rig.waitForValue(bpm, 90)
        try rig.waitForValue(echo, 90)
    }

    /// `foldback run` of the echo preset (a 1/8 echo) with `tempo/source` set to `source` over OSC.
    private func startFollowing(_ source: String) throws -> LiveControlRig {
        let folder = try Self.writeEchoPreset(sync: "1/8")
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/echo.toml"], testCase: self)
        XCTAssertNil(try rig.request("/foldback/tempo/source", [.string(source)], timeout: 0.5))
        try rig.waitForValue("/foldback/tempo/source", Float(source == "midi_clock" ? 2 : 3))
        return rig
    }

    /// A drum machine's MIDI clock at 96 BPM (24 ticks a quarter at exact frames) into `midi_in`: within two beats
    /// (1.25 s) the show tempo and the echo are 96 BPM, so its 1/8 is 312.5 ms within 1 ms.
    func testMIDIClockAt96BPMSetsTheEchoWithinTwoBeats() throws {
        let rig = try startFollowing("midi_clock")
        defer { rig.close() }
        let clock = try JACKTestMIDIClock(name: "\(rig.clientName)-clock", serverName: serverName, bpm: 96)
        defer { clock.close() }
        let start = ContinuousClock.now
        XCTAssertNil(clock.connect(to: "\(rig.clientName):midi_in"))
        try rig.waitForValue("/foldback/strip/vox/unit/echo/tempo_bpm", 96, timeout: 1.25)
        let took = ContinuousClock.now - start
        let bpm = try XCTUnwrap(try rig.request("/foldback/tempo/bpm/get")?.arguments.first?.number)
        let eighth = EchoParameters(sync: .eighth, tempo: bpm).seconds * 1000
        XCTAssertEqual(eighth, 312.5, accuracy: 1)
        print("ShowTempoEndToEndTests: MIDI clock 96 BPM followed after \(took): \(bpm) BPM, 1/8 = \(eighth) ms")
    }

    /// A drum pad (note 36 on channel 10, `[[midi.note]]` → `tempo.tap`) from a JACK MIDI client into `midi_in`: four hits
    /// 500 ms apart (each with its note-off) move the show tempo and the 1/8 echo from 90 to 120 BPM (±2: the hits are timed
    /// as the MIDI input thread takes them); the log says so.
    func testAMIDINoteMappedToTapTapsTheTempo() throws {
        let folder = try Self.writeEchoPreset(sync: "1/8", more: """
            tempo_bpm = 90
            [midi]
            [[midi.note]]
            channel = 10
            note = 36
            target = "tempo.tap"
            """)
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/echo.toml"], testCase: self)
        defer { rig.close() }
        try rig.waitForValue("/foldback/tempo/bpm", 90)
        let pad = try JACKTestMIDISender(name: "\(rig.clientName)-pad", serverName: serverName)
        defer { pad.close() }
        XCTAssertNil(pad.connect(to: "\(rig.clientName):midi_in"))
        for hit in 0..<4 {
            if hit > 0 { usleep(500_000) }   // the beat itself
            pad.send(.noteOn(channel: 10, note: 36, velocity: 100))
            XCTAssertTrue(pad.waitUntilSent())
            pad.send(.noteOff(channel: 10, note: 36))
        }
        try rig.waitForLog("MIDI: tempo tap:")
        let bpm = try XCTUnwrap(try rig.request("/foldback/tempo/bpm/get")?.arguments.first?.number)
        XCTAssertEqual(bpm, 120, accuracy: 2)
        try rig.waitForValue("/foldback/strip/vox/unit/echo/tempo_bpm", bpm)
        print("ShowTempoEndToEndTests: four MIDI note-ons 500 ms apart: \(bpm) BPM")
    }

    /// A click player as JACK transport's timebase master at 140 BPM: the show tempo and the echo follow it.
    func testAJACKTransportTimebaseMasterAt140BPMIsFollowed() throws {
        let rig = try startFollowing("jack_transport")
        defer { rig.close() }
        let master = try JACKTestTimebaseMaster(name: "\(rig.clientName)-click", serverName: serverName, bpm: 140)
        defer { master.close() }
        try rig.waitForValue("/foldback/tempo/bpm", 140)
        try rig.waitForValue("/foldback/strip/vox/unit/echo/tempo_bpm", 140)
    }
}
