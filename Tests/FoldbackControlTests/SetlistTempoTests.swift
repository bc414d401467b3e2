// A setlist song's `bpm`: read and checked, and set on every echo of its preset when the song is selected. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import XCTest

final class SetlistTempoTests: XCTestCase {
    /// A mono `vox` strip with a 1/4 echo into bus `main`.
    static let echoPreset = """
        [[bus]]
        name = "main"

        [[strip]]
        name = "vox"
          [[strip.unit]]
          type = "echo"
          sync = "1/4"
          [[strip.send]]
          bus = "main"
        """

    /// Song 2 at `bpm = 72`: selecting it sets its echo's tempo to 72 (a 1/4 of 833.3 ms, 40,000 frames at
    /// 48 kHz); song 1 without a bpm keeps the preset's 120.
    func testASongsBPMRetimesItsEchoes() throws {
        let path = try ControlFixtures.write(Self.echoPreset, name: "echo-song.toml")
        let folder = (path as NSString).deletingLastPathComponent
        let file = folder + "/tempo.toml"
        try """
            [[song]]
            preset = "echo-song.toml"

            [[song]]
            name = "Ballad"
            preset = "echo-song.toml"
            bpm = 72
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let setlist = try SetlistLoader.load(path: file)
        XCTAssertEqual(setlist.entries.map(\.bpm), [nil, 72])
        let target = try OfflineTarget(text: Self.echoPreset, path: path)
        let controller = SetlistController(setlist: setlist, target: target)
        let key = EchoUnit.liveParameters[Int(EchoUnit.tempoParameter)].key
        XCTAssertEqual(target.currentPreset.strips[0].units[0].parameters[key], 120)
        try controller.select(index: 1)
        let echo = target.currentPreset.strips[0].units[0]
        XCTAssertEqual(echo.parameters[key], 72)
        let unit = EchoUnit(values: echo.parameters)
        XCTAssertEqual(unit.settings.frames(sampleRate: 48000), 40000)
        try controller.select(index: 0)
        XCTAssertEqual(target.currentPreset.strips[0].units[0].parameters[key], 120)
    }

    func testABPMOutOfRangeIsAnErrorAtItsValue() throws {
        let path = try ControlFixtures.write(Self.echoPreset, name: "echo-song.toml")
        let file = (path as NSString).deletingLastPathComponent + "/fast.toml"
        try "[[song]]\npreset = \"echo-song.toml\"\nbpm = 400\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SetlistLoader.load(path: file)) { error in
            let text = (error as? PresetError)?.description ?? "\(error)"
            XCTAssertTrue(text.contains("\(file):3:7: error: 'bpm' = 400 is out of range; allowed: 20 to 300"), text)
        }
    }

    /// The shipped example: three songs of presets/vocal-echo.toml at 128, 72 and 96 BPM.
    func testTheVocalEchoSetlistLoads() throws {
        let setlist = try SetlistLoader.load(path: "presets/setlists/vocal-echo.toml")
        XCTAssertEqual(setlist.entries.map(\.bpm), [128, 72, 96])
        XCTAssertTrue(setlist.entries.allSatisfy { $0.presetPath.hasSuffix("/vocal-echo.toml") })
    }

    /// `/foldback/tempo/tap` four times 500 ms apart: a lone tap replies 0, the second sets 120 BPM on the
    /// echo (read back over OSC), the next two on the beat leave it; the echo's 1/4 is then 24,000 frames.
    func testTapsOverOSCRetimeTheEchoes() throws {
        let path = try ControlFixtures.write(Self.echoPreset, name: "echo-song.toml")
        let target = try OfflineTarget(text: Self.echoPreset, path: path)
        let router = ControlRouter(target: target, setlist: nil)
        let peer = OSCPeer(host: "127.0.0.1", port: 1)!
        let tempo = "/foldback/strip/vox/unit/echo/tempo_bpm"
        _ = router.handle(OSCMessage(tempo, [.float(90)]), from: peer)
        let replies = [10.0, 10.5, 11.0, 11.5].map { router.handle(OSCMessage("/foldback/tempo/tap", [.float(Float($0))]), from: peer) }
        XCTAssertEqual(replies.map { $0.first?.arguments }, [[.float(0)], [.float(120)], [.float(120)], [.float(120)]])
        XCTAssertEqual(router.handle(OSCMessage(tempo + "/get"), from: peer), [OSCMessage(tempo, [.float(120)])])
        XCTAssertEqual(EchoParameters(sync: .quarter, tempo: 120).frames(sampleRate: 48000), 24000)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/tempo/tap", [.string("x")]), from: peer).first?.path, OSCServer.errorPath)
    }
}
