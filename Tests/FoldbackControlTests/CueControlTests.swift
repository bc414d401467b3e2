// OSC and MIDI for the cue output: selections, clear, level, the cued list, and the measured cue signal. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import FoldbackGraph
import XCTest

final class CueControlTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!
    static let preset = """
        [cue]
        gain_db = -6

        [[bus]]
        name = "main"
        channels = 1
        limiter = false
        [[bus]]
        name = "iem"
        channels = 1
        limiter = false

        [[strip]]
        name = "vox"
        gain_db = -20
          [[strip.send]]
          bus = "main"
          [[strip.send]]
          bus = "iem"
          gain_db = -6
          pre_fader = true
        """

    private func reply(_ router: ControlRouter, _ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] {
        router.handle(OSCMessage(path, arguments), from: peer)
    }

    /// The last sample of main, iem, cue L and cue R with DC 0.1 into vox.
    private func levels(_ target: OfflineTarget) -> [Float] { target.lastSamples(dc: [0.1], outputs: 4) }

    func testCueSelectionsOverOSC() throws {
        let target = try OfflineTarget(text: Self.preset)
        let router = ControlRouter(target: target)
        XCTAssertEqual(levels(target)[2], 0, "nothing cued")
        let cueGain = Decibels.linearGain(fromDecibels: -6)
        XCTAssertEqual(reply(router, "/foldback/cue/bus/iem", [.int(1)]), [])
        var now = levels(target)
        XCTAssertEqual(now[2], now[1] * cueGain, accuracy: 1e-7, "the iem at the cue level")
        XCTAssertEqual(now[3], now[1] * cueGain, accuracy: 1e-7)
        XCTAssertEqual(reply(router, "/foldback/cue/strip/vox/pfl", [.int(1)]), [])
        XCTAssertEqual(reply(router, "/foldback/cue/get"), [OSCMessage("/foldback/cue", [.string("bus/iem"), .string("strip/vox/pfl")])])
        now = levels(target)
        XCTAssertEqual(now[2], (now[1] + 0.1) * cueGain, accuracy: 1e-7, "summed: iem + PFL (fader ignored)")
        XCTAssertEqual(reply(router, "/foldback/cue/clear"), [])
        XCTAssertEqual(reply(router, "/foldback/cue/get"), [OSCMessage("/foldback/cue")])
        XCTAssertEqual(reply(router, "/foldback/cue/strip/vox/afl", [.int(1)]), [])
        XCTAssertEqual(reply(router, "/foldback/cue/gain_db", [.float(0)]), [])
        XCTAssertEqual(reply(router, "/foldback/cue/gain_db/get"), [OSCMessage("/foldback/cue/gain_db", [.float(0)])])
        XCTAssertEqual(reply(router, "/foldback/cue/strip/vox/afl/get"), [OSCMessage("/foldback/cue/strip/vox/afl", [.int(1)])])
        now = levels(target)
        XCTAssertEqual(now[2], 0.01, accuracy: 1e-7, "AFL after the −20 dB fader at 0 dB cue level")
        XCTAssertEqual(now[0], 0.01, accuracy: 1e-7, "main as ever")

        XCTAssertEqual(reply(router, "/foldback/cue/bus/nope", [.int(1)]).first?.path, "/foldback/error")
        XCTAssertEqual(reply(router, "/foldback/cue/strip/vox/xfl", [.int(1)]).first?.path, "/foldback/error")
        XCTAssertEqual(reply(router, "/foldback/cue/bus/iem", [.int(2)]).first?.path, "/foldback/error")
        XCTAssertEqual(reply(router, "/foldback/cue/clear", [.int(1)]).first?.path, "/foldback/error")
    }

    func testCueNeedsACueSectionAndMIDITargetsResolve() throws {
        let plain = try OfflineTarget(text: EngineerToolsControlTests.preset)
        XCTAssertEqual(reply(ControlRouter(target: plain), "/foldback/cue/bus/iem", [.int(1)]).first?.path, "/foldback/error")
        let preset = try PresetLoader.parse(Self.preset, path: "/tmp/cue.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(MIDITarget(parsing: "cue.bus.iem")?.address(in: preset, graph: graph), .cueBus(bus: 1))
        XCTAssertEqual(MIDITarget(parsing: "cue.strip.vox.afl")?.address(in: preset, graph: graph), .cueAFL(strip: 0))
        XCTAssertEqual(MIDITarget(parsing: "cue.clear")?.address(in: preset, graph: graph), .cueClear)
        XCTAssertEqual(MIDITarget(parsing: "cue.gain_db")?.address(in: preset, graph: graph), .cueGain)
        XCTAssertEqual(MIDITarget(parsing: "cue.bus.iem")?.description, "cue.bus.iem")
        XCTAssertThrowsError(try MIDITarget(parsing: "cue.bus.nope")?.info(in: preset).get())
        XCTAssertThrowsError(try MIDITarget(parsing: "cue.bus.iem")?.info(in: PresetLoader.parse(EngineerToolsControlTests.preset, path: "/tmp/x.toml")).get())
    }
}
