// X32 / X-Air periodic requests (/batchsubscribe, /formatsubscribe, X-Air meters), stereo pairs and /xinfo's address, offline. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
@testable import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
@testable import FoldbackX32
import Foundation
import XCTest

final class X32PeriodicTests: XCTestCase {
    private let app = OSCPeer(host: "127.0.0.1", port: 5001)!, tablet = OSCPeer(host: "127.0.0.1", port: 5002)!

    private func console(_ dialect: X32Dialect = .x32, text: String = X32ConsoleTests.preset, address: String = "127.0.0.1") throws -> (X32Console, OfflineTarget) {
        let target = try OfflineTarget(text: text)
        return (X32Console(dialect: dialect, target: target, router: ControlRouter(target: target), address: address), target)
    }

    /// The little-endian 32-bit words of a blob answer (the first is the count).
    private func words(_ outgoing: [X32Console.Outgoing], _ path: String) -> [UInt32]? {
        guard let message = outgoing.first(where: { $0.message.path == path })?.message, case let .blob(bytes) = message.arguments.first,
              bytes.count % 4 == 0 else { return nil }
        return stride(from: 0, to: bytes.count, by: 4).map { offset -> UInt32 in
            bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }   // little-endian
        }
    }

    /// `/batchsubscribe ALIAS /meters/0 0 0 TF` answers the meter blob under the alias every TF × 50 ms; `/renew ALIAS`
    /// keeps it, `/unsubscribe ALIAS` ends it alone (the client's /xremote stays).
    func testBatchSubscribeAnswersUnderTheAliasAtItsRate() throws {
        let (x32, _) = try console()
        _ = x32.receive(OSCMessage("/xremote"), from: app, now: 0)
        XCTAssertTrue(x32.receive(OSCMessage("/batchsubscribe", [.string("/mtr"), .string("/meters/0"), .int(0), .int(0), .int(2)]), from: app, now: 0).isEmpty)
        _ = x32.receive(OSCMessage("/batchsubscribe", [.string("/fdr"), .string("/ch/01/mix/fader"), .int(0), .int(0), .int(1)]), from: app, now: 0)
        let first = x32.tick(now: 0.02)
        XCTAssertEqual(words(first, "/mtr")?.count, 71, "count + 70 floats")
        XCTAssertEqual(words(first, "/mtr")?.first, 70)
        XCTAssertEqual(first.first { $0.message.path == "/fdr" }?.message.arguments, [.float(X32FaderLaw.position(decibels: -6))])
        XCTAssertNil(words(x32.tick(now: 0.06), "/mtr"), "TF 2: every 100 ms")
        XCTAssertNotNil(words(x32.tick(now: 0.12), "/mtr"))
        _ = x32.receive(OSCMessage("/renew", [.string("/mtr")]), from: app, now: 9)
        XCTAssertNotNil(words(x32.tick(now: 15), "/mtr"), "renewed at 9 s")
        XCTAssertNil(x32.tick(now: 15.1).first { $0.message.path == "/fdr" }, "not renewed: lapsed at 10 s")
        _ = x32.receive(OSCMessage("/unsubscribe", [.string("/mtr")]), from: app, now: 15.2)
        XCTAssertNil(words(x32.tick(now: 16), "/mtr"))
        XCTAssertEqual(x32.subscriptions.clientCount, 0, "the /xremote lapsed at 10 s, not at the unsubscribe")
        // X-Air-Edit's aliases have no slash ("meters/1"): answered with one (OSC and liblo need it); /unsubscribe names it as written.
        let (xair, _) = try console(.xair)
        _ = xair.receive(OSCMessage("/batchsubscribe", [.string("meters/1"), .string("/meters/1"), .int(0), .int(0), .int(0)]), from: app, now: 0)
        let answer = try XCTUnwrap(xair.tick(now: 0.02).first?.message)
        XCTAssertEqual(answer.path, "/meters/1")
        XCTAssertEqual(try OSCCodec.decode(OSCCodec.encode(answer)), answer)
        _ = xair.receive(OSCMessage("/unsubscribe", [.string("meters/1")]), from: app, now: 0.03)
        XCTAssertTrue(xair.tick(now: 0.1).isEmpty)
    }

    /// `/formatsubscribe ALIAS PATTERN… FIRST LAST TF` packs every address (`**` numbered as the console numbers it) into one blob.
    func testFormatSubscribePacksTheAddressesValues() throws {
        let (x32, target) = try console()
        _ = x32.receive(OSCMessage("/formatsubscribe", [.string("/faders"), .string("/ch/**/mix/fader"), .string("/ch/**/mix/on"), .int(1), .int(3), .int(1)]),
                        from: tablet, now: 0)
        _ = ControlRouter(target: target).handle(OSCMessage("/foldback/strip/acoustic_guitar/mute", [.int(1)]), from: app, surface: .web)
        let packed = try XCTUnwrap(words(x32.tick(now: 0.02), "/faders"))
        XCTAssertEqual(packed.first, 6)
        XCTAssertEqual(packed[1...3].map { Float(bitPattern: $0) }, [X32FaderLaw.position(decibels: -6), X32FaderLaw.position(decibels: 0), 0.75])
        XCTAssertEqual(Array(packed[4...6]), [1, 0, 1], "vox on, guitar muted (from the web), ch 3 unmapped and on")
        let (xair, _) = try console(.xair)
        _ = xair.receive(OSCMessage("/formatsubscribe", [.string("/b"), .string("/bus/**/mix/fader"), .string("/-snap/index"), .int(1), .int(2), .int(1)]), from: app, now: 0)
        XCTAssertEqual(words(xair.tick(now: 0.02), "/b")?.first, 3, "X-Air buses /bus/1, /bus/2 and one plain address")
    }

    func testMalformedPeriodicRequestsAreRefused() throws {
        let (x32, _) = try console()
        let bad: [[OSCArgument]] = [
            [.string("/a"), .string("/-show/showfile/scene/**/name"), .string("/-show/showfile/cue/**/name"), .string("/-show/showfile/snippet/**/name"),
             .int(0), .int(99), .int(1)],   // 300 addresses: past the format limit
            [.string("/a"), .string("/ch/**/mix/fader"), .int(1), .int(33), .int(1)],   // no channel 33
            [.string("/a"), .string("/ch/**/mix/nothing"), .int(1), .int(2), .int(1)],
            [.string("/a"), .string("/ch/**/mix/fader"), .int(1), .int(2)],
            [.string("/a"), .int(1), .string("/ch/**/mix/fader"), .int(2), .int(1)],
            [.string("/a"), .string("/ch/**/mix/fader"), .int(3), .int(1), .int(1)],
            [.string("/a"), .string("/ch/**/mix/fader"), .int(-1), .int(1), .int(1)],
            [.string(""), .string("/ch/01/mix/fader"), .int(1), .int(1), .int(1)],
        ]
        for arguments in bad { XCTAssertTrue(x32.receive(OSCMessage("/formatsubscribe", arguments), from: app, now: 0).isEmpty) }
        for arguments: [OSCArgument] in [[.string("/m"), .string("/meters/99")], [.string("/m")], [.string("/m"), .string("/meters/0"), .float(1)],
                                          [.string("/m"), .string("/meters/0"), .int(0), .int(0), .int(0), .int(0)]] {
            _ = x32.receive(OSCMessage("/batchsubscribe", arguments), from: app, now: 0)
        }
        _ = x32.receive(OSCMessage("/unsubscribe", [.int(3)]), from: app, now: 0)
        XCTAssertEqual(x32.refusals, bad.count + 5)
        XCTAssertEqual(x32.subscriptions.clientCount, 0, "nothing kept")
        XCTAssertTrue(x32.tick(now: 0.02).isEmpty)
    }

    /// X-Air `/meters/1`: 40 signed 16-bit values in dB × 256 (−32768 silence): channels, buses at 26…, the main L/R at 36/37.
    func testXAirMetersAreSixteenBitDecibels() throws {
        let (xair, _) = try console(.xair)
        XCTAssertTrue(xair.receive(OSCMessage("/meters", [.string("/meters/1")]), from: app, now: 0).isEmpty)
        let frame = xair.tick(now: 0.02)
        guard case let .blob(bytes) = frame.first?.message.arguments.first else { return XCTFail("no X-Air meter frame: \(frame)") }
        XCTAssertEqual(bytes.count, 4 + 40 * 2)
        XCTAssertEqual(Array(bytes.prefix(4)), [40, 0, 0, 0])
        _ = xair.receive(OSCMessage("/meters", [.string("/meters/0")]), from: app, now: 0)
        XCTAssertEqual(xair.refusals, 1, "X32 pages are not X-Air's")
        let snapshot = MeterSnapshot(strips: [("vox", MeterReading(peak: 0.5, rms: 0)), ("acoustic_guitar", MeterReading(peak: 0, rms: 0))],
                                     buses: [("iem", MeterReading(peak: 0.1, rms: 0)), ("foh", MeterReading(peak: 1, rms: 0)), ("wedge", MeterReading(peak: 2, rms: 0))])
        let blob = try XCTUnwrap(X32Meters.blob("/meters/1", snapshot: snapshot, mapping: xair.mapping))
        let values = stride(from: 4, to: blob.count, by: 2).map { offset -> Int16 in
            let low = UInt16(blob[offset]), high = UInt16(blob[offset + 1])
            return Int16(bitPattern: low | high << 8)
        }
        XCTAssertEqual(values[0], -1541, "−6.02 dB")
        XCTAssertEqual(values[1], .min, "silence")
        XCTAssertEqual(values[26], -5120, "iem, −20 dB")
        XCTAssertEqual(values[27], 1541, "wedge, +6.02 dB")
        XCTAssertEqual(Array(values[36...37]), [0, 0], "the main (foh) at 0 dB")
    }

    static let stereo = """
        [[bus]]
        name = "foh"
        channels = 2
        [[strip]]
        name = "vox"
        send = [{ bus = "foh" }]
        [[strip]]
        name = "keys"
        channels = 2
        send = [{ bus = "foh" }]
        [[strip]]
        name = "gtr"
        send = [{ bus = "foh" }]
        [[strip]]
        name = "pads"
        channels = 2
        x32_channel = 8
        send = [{ bus = "foh" }]
        """

    /// A stereo strip is a linked pair: both channels read and move it, `/config/chlink` reads 1 and is the preset's.
    func testStereoStripsAreLinkedPairs() throws {
        let (x32, target) = try console(text: Self.stereo)
        XCTAssertEqual(x32.mapping.channels.prefix(8), ["vox", "gtr", "keys", "keys", nil, nil, "pads", "pads"])
        for (pair, linked) in [("1-2", 0), ("3-4", 1), ("5-6", 0), ("7-8", 1)] {
            XCTAssertEqual(x32.receive(OSCMessage("/config/chlink/" + pair), from: app, now: 0).first?.message.arguments, [.int(Int32(linked))], pair)
        }
        _ = x32.receive(OSCMessage("/xremote"), from: app, now: 0)
        _ = x32.receive(OSCMessage("/xremote"), from: tablet, now: 0)
        _ = x32.tick(now: 0)
        let echo = x32.receive(OSCMessage("/ch/04/mix/fader", [.float(0.5)]), from: app, now: 0.01)
        XCTAssertEqual(target.engine.value(at: .stripGain(strip: 1)) ?? .nan, X32FaderLaw.decibels(position: 0.5), accuracy: 1e-6)
        XCTAssertEqual(echo.map(\.peer), [tablet])
        let partner = x32.tick(now: 0.02)
        XCTAssertEqual(Set(partner.map(\.peer)), [app, tablet], "the linked channel moved for everyone")
        XCTAssertEqual(Set(partner.map(\.message)), [OSCMessage("/ch/03/mix/fader", [.float(X32FaderLaw.quantised(0.5))])])
        XCTAssertTrue(x32.receive(OSCMessage("/config/chlink/3-4", [.int(0)]), from: app, now: 0.03).isEmpty)
        XCTAssertEqual(x32.refusals, 1, "the link is the preset's")
        let (xair, _) = try console(.xair, text: Self.stereo)
        XCTAssertEqual(xair.receive(OSCMessage("/config/chlink/7-8"), from: app, now: 0).first?.message.arguments, [.int(1)])
        let clash = Self.stereo.replacingOccurrences(of: "name = \"gtr\"", with: "name = \"gtr\"\nx32_channel = 7")
        XCTAssertThrowsError(try PresetLoader.parse(clash, path: "/tmp/x32-pair.toml")) { error in
            XCTAssertTrue("\(error)".contains("duplicate x32_channel '7' (stereo strip 'pads' takes the pair 7-8)"), "\(error)")
        }
    }

    /// An X32's `/xremote` pushes a client's set to the others; an X-Air's echoes it to the sender too; `/xremotenfb`
    /// ("no feedback", what X-Air-Edit sends) never echoes, on either port.
    func testEchoRulesOfBothConsoles() throws {
        for (dialect, subscribe, expected) in [(X32Dialect.x32, "/xremote", [tablet]), (.xair, "/xremote", [app, tablet]),
                                               (.xair, "/xremotenfb", [tablet]), (.x32, "/xremotenfb", [tablet])] {
            let (console, target) = try console(dialect)
            _ = console.receive(OSCMessage(subscribe), from: app, now: 0)
            _ = console.receive(OSCMessage("/xremote"), from: tablet, now: 0)
            let pushes = console.receive(OSCMessage("/ch/01/mix/fader", [.float(0.25)]), from: app, now: 1)
            XCTAssertEqual(Set(pushes.map(\.peer)), Set(expected), "\(dialect) \(subscribe)")
            XCTAssertEqual(target.engine.value(at: .stripGain(strip: 0)) ?? .nan, X32FaderLaw.decibels(position: 0.25), accuracy: 1e-6)
            XCTAssertTrue(console.receive(OSCMessage(subscribe, [.int(1)]), from: app, now: 1).isEmpty)
            XCTAssertEqual(console.refusals, 1, "takes no arguments")
        }
    }

    /// Bound to every interface, `/xinfo` and `/status` name the address the client reaches: 127.0.0.1 from this machine,
    /// the LAN address from the LAN (each of this machine's addresses answers itself).
    func testXInfoNamesTheAddressTheClientReaches() throws {
        let (x32, _) = try console(address: "0.0.0.0")
        XCTAssertEqual(x32.receive(OSCMessage("/xinfo"), from: app, now: 0).first?.message.arguments.first, .string("127.0.0.1"))
        let lan = Host.current().addresses.filter { OSCPeer(host: $0, port: 1) != nil && !$0.hasPrefix("127.") }
        for host in lan {
            let peer = try XCTUnwrap(OSCPeer(host: host, port: 5003))
            XCTAssertEqual(x32.receive(OSCMessage("/xinfo"), from: peer, now: 0).first?.message.arguments.first, .string(host))
            XCTAssertEqual(x32.receive(OSCMessage("/status"), from: peer, now: 0).first?.message.arguments[1], .string(host))
        }
        let (bound, _) = try console(address: "192.0.2.77")
        XCTAssertEqual(bound.receive(OSCMessage("/xinfo"), from: app, now: 0).first?.message.arguments.first, .string("192.0.2.77"), "a bound address is named as is")
    }
}
