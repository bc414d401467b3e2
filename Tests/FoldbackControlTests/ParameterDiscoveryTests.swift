// The parameter tree over OSC: /foldback/parameters/get pages it one message per parameter; old spellings still resolve. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import XCTest

final class ParameterDiscoveryTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!

    func testTheTreeAnswersOneMessagePerParameterInPages() throws {
        let target = try OfflineTarget(text: BusControlTests.preset)
        let router = ControlRouter(target: target)
        let tree = try XCTUnwrap(router.parameterTree)
        let all = router.handle(OSCMessage("/foldback/parameters/get"), from: peer)
        XCTAssertEqual(all.first, OSCMessage("/foldback/parameters", [.int(Int32(tree.nodes.count)), .int(0), .int(Int32(tree.nodes.count))]))
        XCTAssertEqual(all.dropFirst().compactMap { $0.arguments.first?.text }, tree.nodes.map(\.path))
        XCTAssertTrue(all.dropFirst().allSatisfy { $0.path == "/foldback/parameter" && $0.typeTags == "ssffffssiss" })
        let gain = try XCTUnwrap(all.first { $0.arguments.first?.text == "strip/vox/gain_db" })
        XCTAssertEqual(gain.arguments[1], .string("number"))
        XCTAssertEqual(gain.arguments[2], .float(-.infinity))
        XCTAssertEqual(gain.arguments[3], .float(EngineGraph.maxGainDB))
        XCTAssertEqual(gain.arguments[6], .string("dB"))
        XCTAssertEqual(gain.arguments[7], .string("db"))
        let send = try XCTUnwrap(all.first { $0.arguments.first?.text == "strip/vox/send/main/gain_db" })
        XCTAssertEqual(send.arguments[9], .string("main"), "the musician of main may set it")
        let polarity = try XCTUnwrap(all.first { $0.arguments.first?.text == "bus/main/unit/trim/polarity" })
        XCTAssertEqual(polarity.arguments[1], .string("choice"))
        XCTAssertEqual(polarity.arguments[10], .string("normal=0|inverted=1"))
        // A page: three from the second; past the end: none.
        let page = router.handle(OSCMessage("/foldback/parameters/get", [.int(1), .int(3)]), from: peer)
        XCTAssertEqual(page.first, OSCMessage("/foldback/parameters", [.int(Int32(tree.nodes.count)), .int(1), .int(3)]))
        XCTAssertEqual(page.dropFirst().compactMap { $0.arguments.first?.text }, Array(tree.nodes[1...3].map(\.path)))
        XCTAssertEqual(router.handle(OSCMessage("/foldback/parameters/get", [.int(999)]), from: peer).count, 1)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/parameters/get", [.float(1)]), from: peer).first?.path, OSCServer.errorPath)
    }

    func testTheLimiterHasOneSpellingAndTheOldOneStillWorks() throws {
        let target = try OfflineTarget(text: BusControlTests.preset)
        let router = ControlRouter(target: target)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/bus/main/limiter_ceiling_db", [.float(-3)]), from: peer), [])
        XCTAssertEqual(target.engine.value(at: .busLimiterCeiling(bus: 0)), -3)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/bus/main/limiter/ceiling_db", [.float(-4)]), from: peer), [])
        XCTAssertEqual(target.engine.value(at: .busLimiterCeiling(bus: 0)), -4)
        XCTAssertEqual(router.handle(OSCMessage("/foldback/bus/main/limiter/release_ms/get"), from: peer),
                       [OSCMessage("/foldback/bus/main/limiter/release_ms", [.float(50)])])
        XCTAssertEqual(MIDITarget(parsing: "bus.main.limiter.ceiling_db"), .bus("main", key: "limiter_ceiling_db"))
        XCTAssertEqual(MIDITarget.currentSpelling(of: "bus.main.limiter.ceiling_db"), "bus.main.limiter_ceiling_db")
        XCTAssertNil(MIDITarget.currentSpelling(of: "bus.main.limiter_ceiling_db"))
        // MIDI now reaches what OSC always could: a strip's enabled switch and its trim compensation.
        let preset = target.currentPreset
        XCTAssertEqual(MIDITarget(parsing: "strip.vox.enabled")?.address(in: preset, graph: try XCTUnwrap(target.engine.graph)), .stripEnabled(strip: 0))
        XCTAssertEqual(try MIDITarget(parsing: "strip.vox.trim_compensation_db")?.info(in: preset).get().range, -48...48)
    }

    func testAnOldSpellingInAMIDIMapLoadsWithAWarningNamingItsLine() throws {
        let text = BusControlTests.preset + "\n[[midi.cc]]\ncc = 7\ntarget = \"bus.main.limiter.ceiling_db\"\n"
        let preset = try PresetLoader.parse(text, path: "/tmp/alias.toml")
        XCTAssertEqual(preset.midi.controls.first?.target, .bus("main", key: "limiter_ceiling_db"))
        let warning = try XCTUnwrap(preset.warnings.first { $0.description.contains("older spelling") }, "\(preset.warnings)")
        let line = try XCTUnwrap(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("target") }) + 1
        XCTAssertTrue(warning.description.hasPrefix("/tmp/alias.toml:\(line):"), warning.description)
        XCTAssertTrue(warning.description.contains("bus.main.limiter_ceiling_db"), warning.description)
    }
}
