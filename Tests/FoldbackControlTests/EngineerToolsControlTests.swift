// OSC and MIDI for trim (with its compensate flag) and talkback (momentary, latching): measured bus levels, errors. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import FoldbackGraph
import XCTest

final class EngineerToolsControlTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!
    static let preset = """
        [[bus]]
        name = "main"
        channels = 1
        [[bus]]
        name = "iem"
        channels = 1

        [[strip]]
        name = "vox"
        trim_db = -6
          [[strip.send]]
          bus = "main"
          pre_fader = true
          [[strip.send]]
          bus = "iem"
          gain_db = -6

        [[strip]]
        name = "gtr"
        trim_compensate = true
          [[strip.send]]
          bus = "iem"

        [[strip]]
        name = "tb"
        talkback = true
        talk_to = ["iem"]
        dim_db = -20
        """

    private func reply(_ router: ControlRouter, _ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] {
        router.handle(OSCMessage(path, arguments), from: peer)
    }

    /// The last sample of each bus, dB, with DC `inputs` on the three strips.
    private func levels(_ target: OfflineTarget, inputs: [Float] = [0.1, 0, 0]) -> [Double] {
        target.lastSamples(dc: inputs, outputs: 2).map { Double(Decibels.decibels(fromLinearGain: abs($0))) }
    }

    func testTrimMovesTheBusesUnlessCompensatedAndTheFlagOverridesTheStripDefault() throws {
        let target = try OfflineTarget(text: Self.preset)
        let router = ControlRouter(target: target)
        let start = levels(target)
        XCTAssertEqual(start[0], -26, accuracy: 0.01, "the preset trim of −6 dB")
        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_db", [.float(6), .int(1)]), [])
        var now = levels(target)
        XCTAssertEqual(now[0] - start[0], 0, accuracy: 0.01, "a compensated move leaves main still")
        XCTAssertEqual(now[1] - start[1], 0, accuracy: 0.01, "and iem")
        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_db/get"), [OSCMessage("/foldback/strip/vox/trim_db", [.float(6)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_compensation_db/get"), [OSCMessage("/foldback/strip/vox/trim_compensation_db", [.float(-12)])])
        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_db", [.float(0)]), [], "vox does not compensate by default")
        now = levels(target)
        XCTAssertEqual(now[0] - start[0], -6, accuracy: 0.01)
        XCTAssertEqual(now[1] - start[1], -6, accuracy: 0.01)

        let guitar = levels(target, inputs: [0, 0.1, 0])[1]
        XCTAssertEqual(reply(router, "/foldback/strip/gtr/trim_db", [.float(12)]), [], "gtr compensates by default")
        XCTAssertEqual(levels(target, inputs: [0, 0.1, 0])[1], guitar, accuracy: 0.01)
        XCTAssertEqual(reply(router, "/foldback/strip/gtr/trim_db", [.float(6), .int(0)]), [], "the flag turns it off for one move")
        XCTAssertEqual(levels(target, inputs: [0, 0.1, 0])[1] - guitar, -6, accuracy: 0.01)

        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_db", [.float(30)]).first?.path, "/foldback/error")
        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_db", [.float(3), .int(2)]).first?.path, "/foldback/error")
        XCTAssertEqual(reply(router, "/foldback/strip/vox/trim_db", [.float(3), .int(1), .int(1)]).first?.path, "/foldback/error")
    }

    func testTalkbackPressesMomentarilyAndLatchesAndDimsItsBus() throws {
        let target = try OfflineTarget(text: Self.preset)
        let router = ControlRouter(target: target)
        let inputs: [Float] = [0.1, 0, 0.5]
        let open = levels(target, inputs: inputs)
        XCTAssertEqual(open[1], -26 - 6, accuracy: 0.01, "vox alone in iem: talkback silent until pressed")
        XCTAssertEqual(reply(router, "/foldback/talkback/tb", [.int(1)]), [])
        XCTAssertEqual(reply(router, "/foldback/talkback/tb/get"), [OSCMessage("/foldback/talkback/tb", [.int(1)])])
        let voxDimmed = Decibels.linearGain(fromDecibels: -32 - 20)
        var pressed = levels(target, inputs: inputs)
        XCTAssertEqual(pressed[1], Double(Decibels.decibels(fromLinearGain: voxDimmed + 0.5)), accuracy: 0.01, "vox dimmed 20 dB under the talk")
        XCTAssertEqual(pressed[0], open[0], accuracy: 1e-9, "main neither dims nor hears it")
        XCTAssertEqual(reply(router, "/foldback/talkback/tb", [.int(0)]), [])
        XCTAssertEqual(levels(target, inputs: inputs)[1], open[1], accuracy: 1e-6, "released")
        XCTAssertEqual(reply(router, "/foldback/talkback/tb/toggle"), [OSCMessage("/foldback/talkback/tb", [.int(1)])])
        pressed = levels(target, inputs: inputs)
        XCTAssertEqual(pressed[1], Double(Decibels.decibels(fromLinearGain: voxDimmed + 0.5)), accuracy: 0.01, "latched")
        XCTAssertEqual(reply(router, "/foldback/talkback/tb/toggle"), [OSCMessage("/foldback/talkback/tb", [.int(0)])])
        XCTAssertEqual(levels(target, inputs: inputs)[1], open[1], accuracy: 1e-6, "unlatched")
        XCTAssertEqual(reply(router, "/foldback/talkback/vox", [.int(1)]).first?.path, "/foldback/error", "vox is no talkback")
        XCTAssertEqual(reply(router, "/foldback/talkback/tb", [.int(3)]).first?.path, "/foldback/error")
    }

    func testMIDITargetsForTrimAndTalkback() throws {
        let preset = try PresetLoader.parse(Self.preset, path: "/tmp/tools.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(MIDITarget(parsing: "strip.tb.talkback")?.address(in: preset, graph: graph), .talkback(strip: 2))
        XCTAssertEqual(MIDITarget(parsing: "strip.vox.trim_db")?.address(in: preset, graph: graph), .stripTrim(strip: 0))
        XCTAssertEqual(MIDITarget(parsing: "strip.gtr.trim_db")?.address(in: preset, graph: graph), .stripTrimCompensated(strip: 1))
        XCTAssertTrue((try? MIDITarget(parsing: "strip.tb.talkback")?.info(in: preset).get())?.isSwitch ?? false)
        XCTAssertThrowsError(try MIDITarget(parsing: "strip.vox.talkback")?.info(in: preset).get())
    }
}
