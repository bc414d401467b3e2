// The X32 / X-Air protocol against an offline engine: identity, mapped gets and sets, echo rules, shadow, refusals. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
@testable import FoldbackX32
import XCTest

final class X32ConsoleTests: XCTestCase {
    static let preset = """
        [preset]
        name = "Saturday show"
        [[bus]]
        name = "iem"
        [[bus]]
        name = "foh"
        channels = 2
        connect = ["system:playback_1", "system:playback_2"]
        [[bus]]
        name = "wedge"

        [[strip]]
        name = "vox"
        gain_db = -6.0
        pan = -0.5
          [[strip.send]]
          bus = "foh"
          [[strip.send]]
          bus = "iem"
          gain_db = -10.0
          pre_fader = true
        [[strip]]
        name = "acoustic_guitar"
          [[strip.send]]
          bus = "foh"
          [[strip.send]]
          bus = "wedge"
          gain_db = -20.0

        [[dca]]
        name = "band"
        strips = ["acoustic_guitar"]
        [[mute_group]]
        name = "all"
        strips = ["vox", "acoustic_guitar"]
        """

    private let app = OSCPeer(host: "127.0.0.1", port: 5001)!, tablet = OSCPeer(host: "127.0.0.1", port: 5002)!

    private func console(_ dialect: X32Dialect = .x32, writableBuses: Set<String>? = nil) throws -> (X32Console, OfflineTarget) {
        let target = try OfflineTarget(text: Self.preset)
        return (X32Console(dialect: dialect, target: target, router: ControlRouter(target: target), address: "127.0.0.1", writableBuses: writableBuses), target)
    }

    private func get(_ console: X32Console, _ path: String) -> OSCArgument? {
        let replies = console.receive(OSCMessage(path), from: app, now: 0)
        XCTAssertEqual(replies.count, 1, path)
        XCTAssertEqual(replies.first?.peer, app)
        XCTAssertEqual(replies.first?.message.path, path)
        return replies.first?.message.arguments.first
    }

    func testIdentityNamesThePresetAndTheModel() throws {
        let (x32, _) = try console()
        XCTAssertEqual(x32.receive(OSCMessage("/xinfo"), from: app, now: 0).map(\.message),
                       [OSCMessage("/xinfo", [.string("127.0.0.1"), .string("Saturday sho"), .string("X32"), .string("4.06")])])
        XCTAssertEqual(x32.receive(OSCMessage("/info"), from: app, now: 0).first?.message.arguments.map(\.typeTag), ["s", "s", "s", "s"])
        XCTAssertEqual(x32.receive(OSCMessage("/status"), from: app, now: 0).first?.message.arguments.first, .string("active"))
        let (xair, _) = try console(.xair)
        XCTAssertEqual(xair.receive(OSCMessage("/xinfo"), from: app, now: 0).first?.message.arguments[2], .string("XR18"))
    }

    /// Strips on /ch in preset order, the bus with playback connections on the main, the others on /bus in order.
    func testMappingReadsTheTreeThroughTheFaderLaw() throws {
        let (x32, _) = try console()
        XCTAssertEqual(get(x32, "/ch/01/config/name"), .string("vox"))
        XCTAssertEqual(get(x32, "/ch/02/config/name"), .string("acoustic_gui"), "12 characters")
        XCTAssertEqual(get(x32, "/ch/01/mix/fader"), .float(X32FaderLaw.position(decibels: -6)))
        XCTAssertEqual(get(x32, "/ch/01/mix/on"), .int(1))
        XCTAssertEqual(get(x32, "/ch/01/mix/pan"), .float(0.25))
        XCTAssertEqual(get(x32, "/main/st/config/name"), .string("foh"))
        XCTAssertEqual(get(x32, "/bus/01/config/name"), .string("iem"))
        XCTAssertEqual(get(x32, "/bus/02/config/name"), .string("wedge"))
        XCTAssertEqual(get(x32, "/ch/01/mix/01/level"), .float(X32FaderLaw.position(decibels: -10)))
        XCTAssertEqual(get(x32, "/ch/01/mix/01/type"), .int(3), "pre-fader")
        XCTAssertEqual(get(x32, "/ch/02/mix/02/type"), .int(4), "post-fader")
        XCTAssertEqual(get(x32, "/ch/02/grp/dca"), .int(1))
        XCTAssertEqual(get(x32, "/ch/01/grp/mute"), .int(1))
        XCTAssertEqual(get(x32, "/dca/1/config/name"), .string("band"))
        XCTAssertEqual(get(x32, "/ch/05/mix/fader"), .float(0.75), "an unmapped channel answers from the shadow")
        let (xair, _) = try console(.xair)
        XCTAssertEqual(get(xair, "/lr/config/name"), .string("foh"))
        XCTAssertEqual(get(xair, "/bus/2/config/name"), .string("wedge"))
    }

    /// A set goes through the router into the engine; the sender is not echoed, the other /xremote client is.
    func testSetsReachTheEngineAndEchoToTheOtherClients() throws {
        let (x32, target) = try console()
        XCTAssertEqual(x32.receive(OSCMessage("/xremote"), from: app, now: 0).count, 0)
        XCTAssertEqual(x32.receive(OSCMessage("/xremote"), from: tablet, now: 0).count, 0)
        let pushes = x32.receive(OSCMessage("/ch/01/mix/fader", [.float(0.5)]), from: app, now: 1)
        XCTAssertEqual(target.engine.value(at: .stripGain(strip: 0)) ?? .nan, X32FaderLaw.decibels(position: 0.5), accuracy: 1e-6)
        XCTAssertEqual(pushes.map(\.peer), [tablet])
        XCTAssertEqual(pushes.first?.message, OSCMessage("/ch/01/mix/fader", [.float(X32FaderLaw.quantised(0.5))]))
        _ = x32.receive(OSCMessage("/ch/01/mix/on", [.int(0)]), from: tablet, now: 1)
        XCTAssertEqual(target.engine.value(at: .stripMute(strip: 0)), 1)
        _ = x32.receive(OSCMessage("/ch/02/mix/02/level", [.float(0.75)]), from: app, now: 1)
        XCTAssertEqual(target.engine.value(at: .sendGain(strip: 1, send: 1)) ?? .nan, X32FaderLaw.decibels(position: 0.75), accuracy: 1e-6)
        _ = x32.receive(OSCMessage("/ch/02/mix/02/on", [.int(0)]), from: app, now: 1)
        XCTAssertEqual(target.engine.value(at: .sendMute(strip: 1, send: 1)), 1, "send off is the send's mute")
        XCTAssertEqual(target.engine.value(at: .sendGain(strip: 1, send: 1)) ?? .nan, X32FaderLaw.decibels(position: 0.75), accuracy: 1e-6, "and keeps its level")
        _ = x32.receive(OSCMessage("/dca/1/fader", [.float(0.25)]), from: app, now: 1)
        XCTAssertEqual(target.engine.value(at: .dcaGain(dca: 0)) ?? .nan, X32FaderLaw.decibels(position: 0.25), accuracy: 1e-6)
        _ = x32.receive(OSCMessage("/config/mute/1", [.int(1)]), from: app, now: 1)
        XCTAssertEqual(target.engine.value(at: .muteGroup(group: 0)), 1)
        XCTAssertTrue(x32.tick(now: 1.02).isEmpty, "what X32 clients set was pushed already")
    }

    /// A change from another surface (here the router, as OSC or the web would) reaches every /xremote client on the next tick.
    func testChangesFromOtherSurfacesArePushedUntilTheSubscriptionLapses() throws {
        let (x32, target) = try console()
        _ = x32.receive(OSCMessage("/xremote"), from: app, now: 0)
        _ = x32.tick(now: 0)
        _ = ControlRouter(target: target).handle(OSCMessage("/foldback/bus/wedge/gain_db", [.float(-10)]), from: tablet, surface: .web)
        XCTAssertEqual(x32.tick(now: 0.02).map(\.message), [OSCMessage("/bus/02/mix/fader", [.float(X32FaderLaw.position(decibels: -10))])])
        XCTAssertTrue(x32.tick(now: 0.04).isEmpty, "pushed once")
        _ = ControlRouter(target: target).handle(OSCMessage("/foldback/strip/vox/mute", [.int(1)]), from: tablet, surface: .osc)
        XCTAssertTrue(x32.tick(now: 10.5).isEmpty, "the /xremote lapsed after 10 s")
        _ = x32.receive(OSCMessage("/xremote"), from: app, now: 11)
        _ = x32.receive(OSCMessage("/renew"), from: app, now: 20)
        _ = ControlRouter(target: target).handle(OSCMessage("/foldback/strip/vox/mute", [.int(0)]), from: tablet, surface: .osc)
        XCTAssertEqual(x32.tick(now: 29).map(\.message), [OSCMessage("/ch/01/mix/on", [.int(1)])], "renewed at 20 s")
        _ = x32.receive(OSCMessage("/unsubscribe"), from: app, now: 29)
        XCTAssertEqual(x32.subscriptions.clientCount, 0)
    }

    /// A preset switch (from any surface) remaps the console and pushes the new names and levels to /xremote clients.
    func testAPresetSwitchPushesTheNewShow() throws {
        let (x32, target) = try console()
        _ = x32.receive(OSCMessage("/xremote"), from: app, now: 0)
        let next = try ControlFixtures.write(Self.preset.replacingOccurrences(of: "\"vox\"", with: "\"lead\"")
            .replacingOccurrences(of: "gain_db = -6.0", with: "gain_db = -10.0"), name: "next.toml")
        _ = try target.switchPreset(toPath: next)
        let pushes = x32.tick(now: 0.02).map(\.message)
        XCTAssertTrue(pushes.contains(OSCMessage("/ch/01/config/name", [.string("lead")])), "\(pushes)")
        XCTAssertTrue(pushes.contains(OSCMessage("/ch/01/mix/fader", [.float(X32FaderLaw.position(decibels: -10))])), "\(pushes)")
        XCTAssertEqual(get(x32, "/ch/01/config/name"), .string("lead"))
        XCTAssertTrue(x32.tick(now: 0.04).isEmpty, "pushed once")
    }

    func testShadowStoresUnmappedAddressesWithoutTouchingTheEngine() throws {
        let (x32, target) = try console()
        let before = target.engine.parameterChangeCount
        XCTAssertEqual(get(x32, "/ch/01/eq/2/g"), .float(0.5))
        _ = x32.receive(OSCMessage("/ch/01/eq/2/g", [.float(0.8)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/-prefs/remote/port", [.int(3)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/ch/01/config/name", [.string("Lead")]), from: app, now: 0)
        XCTAssertEqual(get(x32, "/ch/01/eq/2/g"), .float(0.8))
        XCTAssertEqual(get(x32, "/-prefs/remote/port"), .int(3))
        XCTAssertEqual(get(x32, "/ch/01/config/name"), .string("Lead"))
        XCTAssertEqual(target.engine.parameterChangeCount, before)
        XCTAssertEqual(x32.refusals, 0)
    }

    /// Wrong types, ranges and sizes are refused and counted; nothing changes.
    func testBadInputIsRefusedAndChangesNothing() throws {
        let (x32, target) = try console()
        let bad: [OSCMessage] = [
            OSCMessage("/ch/01/mix/fader", [.int(1)]), OSCMessage("/ch/01/mix/fader", [.float(1.5)]), OSCMessage("/ch/01/mix/fader", [.float(.nan)]),
            OSCMessage("/ch/01/mix/fader", [.float(0.5), .float(0.5)]), OSCMessage("/ch/01/mix/on", [.int(2)]),
            OSCMessage("/ch/01/mix/on", [.string("ON")]), OSCMessage("/ch/99/mix/fader", [.float(0.5)]),
            OSCMessage("/ch/01/grp/dca", [.int(3)]), OSCMessage("/ch/01/config/name", [.string("far too long a name")]),
            OSCMessage("/ch/01/eq/2/g", [.float(-1)]), OSCMessage("/-prefs/name", [.int(1)]), OSCMessage("/-stat/solo", [.int(1 << 20)]),
            OSCMessage("/node", [.int(1)]), OSCMessage("/meters", [.string("/meters/9")]), OSCMessage("/subscribe", []),
            OSCMessage("/renew", [.int(1)]), OSCMessage("/ch/01/mix/fader", [.blob([1, 2, 3])]),
        ]
        for message in bad { XCTAssertTrue(x32.receive(message, from: app, now: 0).isEmpty, "\(message)") }
        XCTAssertEqual(x32.refusals, bad.count)
        XCTAssertEqual(target.engine.parameterChangeCount, 0)
        XCTAssertEqual(get(x32, "/ch/01/mix/fader"), .float(X32FaderLaw.position(decibels: -6)))
    }

    /// With `[x32] buses`, sends into other buses (and masters) read only.
    func testWritableBusesLimitWhatClientsMayChange() throws {
        let (x32, target) = try console(writableBuses: ["iem"])
        _ = x32.receive(OSCMessage("/ch/01/mix/01/level", [.float(0.5)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/ch/02/mix/02/level", [.float(0.5)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/main/st/mix/fader", [.float(0)]), from: app, now: 0)
        XCTAssertEqual(target.engine.value(at: .sendGain(strip: 0, send: 1)) ?? .nan, X32FaderLaw.decibels(position: 0.5), accuracy: 1e-6)
        XCTAssertNil(target.engine.value(at: .sendGain(strip: 1, send: 1)))
        XCTAssertNil(target.engine.value(at: .busGain(bus: 1)))
        XCTAssertEqual(x32.refusals, 2)
    }

    /// `[x32] buses` in the preset does the same, is checked against the preset's buses and is written back on save.
    func testPresetX32BusesLimitClientsAndSurviveASave() throws {
        let target = try OfflineTarget(text: Self.preset + "\n[x32]\nbuses = [\"wedge\"]\n")
        XCTAssertEqual(target.currentPreset.x32Buses, ["wedge"])
        let x32 = X32Console(dialect: .x32, target: target, router: ControlRouter(target: target), address: "127.0.0.1")
        _ = x32.receive(OSCMessage("/ch/01/mix/01/level", [.float(0.5)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/ch/02/mix/02/level", [.float(0.5)]), from: app, now: 0)
        XCTAssertNil(target.engine.value(at: .sendGain(strip: 0, send: 1)), "iem is read only")
        XCTAssertNotNil(target.engine.value(at: .sendGain(strip: 1, send: 1)), "wedge takes the move")
        let text = PresetWriter.text(for: target.currentPreset)
        XCTAssertTrue(text.contains("[x32]\nbuses = [\"wedge\"]"), text)
        XCTAssertEqual(try PresetLoader.parse(text, path: "/tmp/x32-saved.toml").x32Buses, ["wedge"])
        XCTAssertThrowsError(try PresetLoader.parse(Self.preset + "\n[x32]\nbuses = [\"front\"]\n", path: "/tmp/x32-bad.toml")) { error in
            XCTAssertTrue("\(error)".contains("no bus named 'front'"), "\(error)")
        }
    }

    /// A strip's first built-in EQ and compressor answer as the channel's `eq` and `dyn`, on the console's scales.
    func testChannelEQAndDynamicsMapOntoBuiltInUnits() throws {
        let text = """
            [[bus]]
            name = "foh"
            [[strip]]
            name = "vox"
              [[strip.unit]]
              type = "eq"
              id = "eq"
                [[strip.unit.band]]
                type = "peak"
                freq_hz = 1000.0
                gain_db = 3.0
                q = 1.0
              [[strip.unit]]
              type = "compressor"
              id = "comp"
              threshold_db = -30.0
              ratio = 4.0
              [[strip.send]]
              bus = "foh"
            """
        let target = try OfflineTarget(text: text)
        let x32 = X32Console(dialect: .x32, target: target, router: ControlRouter(target: target), address: "127.0.0.1")
        XCTAssertEqual(get(x32, "/ch/01/eq/1/g"), .float(0.6), "+3 dB on ±15")
        XCTAssertEqual(get(x32, "/ch/01/eq/1/f")?.number ?? 0, log10(50) / 3, accuracy: 1e-5, "1 kHz on 20 Hz…20 kHz, logarithmic")
        XCTAssertEqual(get(x32, "/ch/01/eq/on"), .int(1))
        XCTAssertEqual(get(x32, "/ch/01/dyn/thr"), .float(0.5), "−30 dB on −60…0")
        XCTAssertEqual(get(x32, "/ch/01/dyn/ratio"), .int(6), "4:1 is the list's seventh ratio")
        XCTAssertEqual(get(x32, "/ch/01/eq/2/g"), .float(0.5), "a band the unit lacks answers from the shadow")
        _ = x32.receive(OSCMessage("/ch/01/eq/1/g", [.float(0.2)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/ch/01/dyn/ratio", [.int(11)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/ch/01/dyn/on", [.int(0)]), from: app, now: 0)
        let tree = ParameterPath.tree(graph: try XCTUnwrap(target.engine.graph), preset: target.currentPreset)
        func live(_ path: String) throws -> Float? { target.engine.value(at: try XCTUnwrap(tree.node(at: path)).address) }
        XCTAssertEqual(try live("strip/vox/unit/eq/band1_gain_db") ?? 0, -9, accuracy: 1e-4)
        XCTAssertEqual(try live("strip/vox/unit/comp/ratio"), 20, "100:1 stops at Foldback's 20:1")
        XCTAssertEqual(try live("strip/vox/unit/comp/bypass"), 1)
    }

    /// `x32_channel` places a strip on its channel (the others fill the free ones in order); `x32_main` picks the main.
    func testPresetChoosesChannelsAndTheMain() throws {
        let text = Self.preset.replacingOccurrences(of: "name = \"acoustic_guitar\"", with: "name = \"acoustic_guitar\"\nx32_channel = 1")
            .replacingOccurrences(of: "name = \"wedge\"", with: "name = \"wedge\"\nx32_main = true")
        let target = try OfflineTarget(text: text)
        let x32 = X32Console(dialect: .x32, target: target, router: ControlRouter(target: target), address: "127.0.0.1")
        XCTAssertEqual(get(x32, "/ch/01/config/name"), .string("acoustic_gui"))
        XCTAssertEqual(get(x32, "/ch/02/config/name"), .string("vox"))
        XCTAssertEqual(get(x32, "/main/st/config/name"), .string("wedge"))
        XCTAssertEqual(get(x32, "/bus/02/config/name"), .string("foh"))
        let saved = try PresetLoader.parse(PresetWriter.text(for: target.currentPreset), path: "/tmp/x32-saved.toml")
        XCTAssertEqual(saved.strips.map(\.x32Channel), [nil, 1])
        XCTAssertEqual(saved.buses.map(\.isX32Main), [false, false, true])
        let twice = text.replacingOccurrences(of: "name = \"vox\"", with: "name = \"vox\"\nx32_channel = 1")
        XCTAssertThrowsError(try PresetLoader.parse(twice, path: "/tmp/x32-twice.toml")) { error in
            XCTAssertTrue("\(error)".contains("duplicate x32_channel '1'"), "\(error)")
        }
    }

    func testNodeTextAndMeterFrames() throws {
        let (x32, _) = try console()
        XCTAssertEqual(x32.receive(OSCMessage("/node", [.string("ch/01/mix")]), from: app, now: 0).first?.message.arguments,
                       [.string("/ch/01/mix ON -6.0 1 -50 0 0.0000\n")])
        XCTAssertEqual(x32.receive(OSCMessage("/node", [.string("ch/02/config")]), from: app, now: 0).first?.message.arguments,
                       [.string("/ch/02/config \"acoustic_gui\" 1 1 1\n")])
        _ = x32.receive(OSCMessage("/meters", [.string("/meters/0"), .int(1)]), from: app, now: 0)
        _ = x32.receive(OSCMessage("/meters", [.string("/meters/1")]), from: tablet, now: 0)
        let frames = x32.tick(now: 0.02)
        let blobs = frames.compactMap { frame -> [UInt8]? in if case let .blob(bytes) = frame.message.arguments.first { bytes } else { nil } }
        XCTAssertEqual(blobs.map(\.count).sorted(), [4 + 70 * 4, 4 + 96 * 4])
        XCTAssertEqual(blobs.map { Array($0.prefix(4)) }.sorted { $0[0] < $1[0] }, [[70, 0, 0, 0], [96, 0, 0, 0]])
    }
}
