// The X32 / X-Air surface against two independent client libraries and a fuzzer, on a running `foldback run`, measured in its audio. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackTestSupport
import FoldbackX32
import Foundation
import XCTest

/// `foldback run --x32-port 0 --xair-port 0` on a dummy jackd, a JACK test client playing into `vox_in` and recording
/// `main` and `iem`, driven by behringer-mixer and xair-api (PyPI, pinned in Fixtures/x32/requirements.txt, installed
/// into .build/x32-venv by `make test-deps`) and by a fuzzer of malformed X32 messages.
final class X32ClientEndToEndTests: JACKServerTestCase {
    static let preset = """
        [preset]
        name = "X32 test"
        [[bus]]
        name = "main"
        channels = 1
        limiter = false
        connect = ["system:playback_1"]
        [[bus]]
        name = "iem"
        channels = 1
        limiter = false
        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "main"
          [[strip.send]]
          bus = "iem"
          gain_db = -6.0
        [[dca]]
        name = "band"
        strips = ["vox"]
        """

    private struct Rig {
        let live: LiveControlRig
        let x32: UInt16, xair: UInt16
        /// The web surface's port and the engineer's token.
        let web: UInt16, engineer: String
    }

    /// `foldback run` with both ports, on 127.0.0.1 unless `bind` names another address.
    private func rig(bind: String? = nil) throws -> Rig {
        let path = try LiveControlRig.temporaryFolder() + "/x32.toml"
        try Self.preset.write(toFile: path, atomically: true, encoding: .utf8)
        let options = ["--x32-port", "0", "--xair-port", "0"] + (bind.map { ["--x32-bind", $0] } ?? [])
        let (live, web, tokens) = try LiveControlRig.web(
            server: serverName, testCase: self, preset: path, options: options, recordFrom: ["main", "iem"])
        try live.waitForLog("X-Air protocol on")
        return Rig(
            live: live, x32: try Self.port(live.run.standardError, "X32"), xair: try Self.port(live.run.standardError, "X-Air"),
            web: web, engineer: try XCTUnwrap(tokens["engineer"]))
    }

    private static func port(_ log: String, _ protocolName: String) throws -> UInt16 {
        guard let range = log.range(of: protocolName + #" protocol on [0-9.]+:(\d+)"#, options: .regularExpression),
              let port = UInt16(log[range].split(separator: ":").last ?? "") else {
            throw FoldbackRun.Failure("foldback did not say its \(protocolName) port:\n\(log)")
        }
        return port
    }

    /// Runs Fixtures/x32/x32_clients.py with `arguments` in the pinned client libraries' environment; its JSON answer.
    private func client(_ arguments: String...) throws -> [String: Any] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/x32-venv/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw FoldbackRun.Failure("no \(python): run `make test-deps` (it installs the X32 client libraries pinned in Fixtures/x32/requirements.txt)")
        }
        let process = Process(), output = Pipe(), errors = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/x32/x32_clients.py").path] + arguments
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        XCTAssertTrue(process.waitUntilExit(within: 120), "x32_clients.py \(arguments) ended")
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").last,
              let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw FoldbackRun.Failure("x32_clients.py \(arguments) failed (\(process.terminationStatus)):\n\(text)\n\(problems)")
        }
        return answer
    }

    /// Both libraries connect, complete their state load (every address they sync answered) and read names and faders.
    func testTwoClientLibrariesSyncAndReadNamesAndFaders() throws {
        let rig = try rig()
        defer { rig.live.close() }
        for (kind, port) in [("X32", rig.x32), ("XR18", rig.xair)] {
            let sync = try client("behringer-sync", kind, String(port))
            XCTAssertEqual(sync["missing"] as? [String], [], "\(kind): every address behringer-mixer syncs answered")
            XCTAssertGreaterThan(sync["mappings"] as? Int ?? 0, kind == "X32" ? 1_000 : 300, "\(kind): \(sync)")
            XCTAssertEqual(sync["type"] as? String, kind)
            XCTAssertEqual(sync["name"] as? String, "X32 test")
            XCTAssertEqual(sync["ch1_name"] as? String, "vox")
            XCTAssertEqual(sync["ch1_fader_db"] as? Double, 0)
            XCTAssertEqual(sync["ch1_on"] as? Bool, true)
            XCTAssertEqual(sync["main_name"] as? String, "main")
            XCTAssertEqual(sync["bus1_name"] as? String, "iem")
            XCTAssertEqual(sync["send_1_1_db"] as? Double, -6)
            XCTAssertEqual(sync["dca1_name"] as? String, "band")
        }
        let read = try client("xairapi-get", String(rig.x32))
        XCTAssertEqual(read["name"] as? String, "vox")
        XCTAssertEqual(read["fader_db"] as? Double, 0)
        XCTAssertEqual(read["send1_db"] as? Double, -6)
        XCTAssertEqual(read["mute"] as? Bool, false)
        XCTAssertEqual(read["dca1_on"] as? Bool, true)
    }

    /// A channel fader, a send into the in-ear bus, a DCA and a mute, moved by each library, measured in the audio
    /// within 0.1 dB of the X32 fader law at the step the console stores.
    func testMovesFromBothLibrariesAreHeardAtTheFaderLawsLevels() throws {
        let rig = try rig()
        defer { rig.live.close() }
        let live = rig.live
        XCTAssertEqual(decibels(try live.measuredGain(channel: 0)), 0, accuracy: 0.1)
        XCTAssertEqual(decibels(try live.measuredGain(channel: 1)), -6, accuracy: 0.1)

        _ = try client("behringer-set", "X32", String(rig.x32), "/ch/1/mix_fader_db", "-10")   // writes position 0.5
        let fader = Double(X32FaderLaw.decibels(position: 0.5))
        XCTAssertEqual(decibels(try live.measuredGain(channel: 0)), fader, accuracy: 0.1, "channel fader by behringer-mixer")

        let set = try client("xairapi-set", String(rig.x32), "send", "-20")   // writes (−20 + 50) / 80 = 0.375
        XCTAssertEqual(set["send1_db"] as? Double, -20)
        let send = Double(X32FaderLaw.decibels(position: 0.375))
        XCTAssertEqual(decibels(try live.measuredGain(channel: 1)), fader + send, accuracy: 0.1, "post-fader send into iem by xair-api")

        _ = try client("behringer-set", "X32", String(rig.x32), "/dca/1/mix_fader_db", "-6")   // writes 0.6
        let dca = Double(X32FaderLaw.decibels(position: 0.6))
        XCTAssertEqual(decibels(try live.measuredGain(channel: 0)), fader + dca, accuracy: 0.1, "DCA by behringer-mixer")

        _ = try client("xairapi-set", String(rig.x32), "dca_on", "false")
        XCTAssertLessThan(abs(try live.measuredGain(channel: 0)), 1e-4, "DCA off by xair-api")
        _ = try client("xairapi-set", String(rig.x32), "dca_on", "true")
        XCTAssertEqual(decibels(try live.measuredGain(channel: 0)), fader + dca, accuracy: 0.1, "DCA on again")

        let muted = try client("xairapi-set", String(rig.x32), "mute", "true")
        XCTAssertEqual(muted["mute"] as? Bool, true)
        XCTAssertLessThan(abs(try live.measuredGain(channel: 0)), 1e-4, "channel muted by xair-api")
        _ = try client("behringer-set", "X32", String(rig.x32), "/ch/1/mix_on", "true")
        XCTAssertEqual(decibels(try live.measuredGain(channel: 0)), fader + dca, accuracy: 0.1, "unmuted by behringer-mixer")
        XCTAssertEqual(try live.request("/foldback/strip/vox/gain_db/get")?.arguments.first?.number ?? 0, Float(fader), accuracy: 1e-4,
                       "Foldback's own OSC reads what the X32 client set")
    }

    /// A move on Foldback's own OSC surface reaches a subscribed (/xremote) behringer-mixer client within 100 ms, every time.
    func testAMoveOnAnotherSurfaceReachesASubscribedClientWithin100ms() throws {
        let rig = try rig()
        defer { rig.live.close() }
        let result = try client("push-latency", "X32", String(rig.x32), String(rig.live.oscPort), "20")
        XCTAssertEqual(result["received"] as? Int, 20, "\(result)")
        XCTAssertLessThan(result["max_ms"] as? Double ?? .infinity, 100, "\(result)")
        print("X32 push latency over 20 moves: median \(result["median_ms"] ?? "-") ms, max \(result["max_ms"] ?? "-") ms")
    }

    /// A fader move on Foldback's web page (the engineer's WebSocket) reaches an /xremote X32 client within 100 ms, every time.
    func testAWebMoveReachesASubscribedX32ClientWithin100ms() throws {
        let rig = try rig()
        defer { rig.live.close() }
        let app = try OSCClient(serverPort: rig.x32)
        try app.send(OSCMessage("/xremote"))
        XCTAssertNotNil(try app.request(OSCMessage("/xinfo"), timeout: 5) { $0.path == "/xinfo" }, "subscribed (messages are handled in order)")
        let page = try WebSocketTestClient(port: rig.web, path: "/ws?token=\(rig.engineer)")
        XCTAssertNotNil(page.next("state"))
        var delays: [Double] = []
        for move in 0..<20 {
            let decibels = move % 2 == 0 ? -12.0 : -3.0
            let expected = OSCArgument.float(X32FaderLaw.position(decibels: Float(decibels)))
            let sent = ContinuousClock.now
            page.send(#"{"path":"/foldback/strip/vox/gain_db","value":\#(decibels)}"#)
            var arrived: ContinuousClock.Instant?
            while arrived == nil, let push = app.receive(timeout: 1) {
                if push.path == "/ch/01/mix/fader", push.arguments == [expected] { arrived = .now }
            }
            let delay = try XCTUnwrap(arrived, "move \(move) pushed") - sent
            delays.append(Double(delay.components.attoseconds) * 1e-15 + Double(delay.components.seconds) * 1e3)
        }
        print("X32 push of a web move over 20 moves: median \(delays.sorted()[10]) ms, max \(delays.max() ?? 0) ms")
        XCTAssertLessThan(delays.max() ?? .infinity, 100, "\(delays)")
    }

    /// `/meters/0` frames carry the playing strip's peak on channel 1 and the in-ear bus's on bus 1, silence elsewhere.
    func testMeterFramesCarryTheStripAndBusLevels() throws {
        let rig = try rig()
        defer { rig.live.close() }
        let app = try OSCClient(serverPort: rig.x32)
        try app.send(OSCMessage("/meters", [.string("/meters/0"), .int(1)]))
        var frames: [[Float]] = []
        while frames.count < 10, let message = app.receive(timeout: 2) {
            guard message.path == "/meters/0", case let .blob(bytes)? = message.arguments.first, bytes.count >= 4 else { continue }
            let values = stride(from: 0, to: bytes.count, by: 4).map { offset in
                bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }   // little-endian
            }
            XCTAssertEqual(values.first, 70, "the count")
            frames.append(values.dropFirst().map { Float(bitPattern: $0) })
        }
        XCTAssertEqual(frames.count, 10, "frames every 50 ms")
        let last = try XCTUnwrap(frames.last)
        XCTAssertEqual(last.count, 70)
        // The test client plays noise peaking at −20 dBFS (0.1), vox at 0 dB; the in-ear send is −6 dB.
        XCTAssertEqual(last[0], 0.1, accuracy: 0.01, "channel 1 (vox): its peak, linear")
        XCTAssertEqual(last[48], 0.05, accuracy: 0.005, "bus 1 (iem) at −6 dB from vox")
        XCTAssertEqual(last[1], 0, "channel 2: no strip")
    }

    /// python-osc sending what X32-Edit, X-Air-Edit and Mixing Station send for meters and grouped values (their apps
    /// are proprietary and cannot run here): `/batchsubscribe` of a meter page under an alias, `/formatsubscribe` of a
    /// `**` range, `/unsubscribe ALIAS`, and X-Air's `/meters/1`, each measured against the noise vox plays (−20 dBFS peaks).
    func testBatchAndFormatSubscriptionsAndXAirMetersReachAClient() throws {
        let rig = try rig()
        defer { rig.live.close() }
        let answer = try client("periodic", String(rig.x32), String(rig.xair))
        print("X32 periodic requests measured: \(answer)")
        XCTAssertGreaterThanOrEqual(answer["batch_frames"] as? Int ?? 0, 10, "\(answer)")
        XCTAssertEqual(answer["batch_bytes"] as? Int, 4 + 70 * 4)
        XCTAssertEqual(answer["batch_count"] as? Int, 70)
        XCTAssertEqual(answer["batch_interval_ms"] as? Double ?? 0, 50, accuracy: 25, "TF 1: every 50 ms")
        XCTAssertEqual(answer["batch_ch1"] as? Double ?? 0, 0.1, accuracy: 0.01, "vox's peak, −20 dBFS")
        XCTAssertEqual(answer["batch_bus1"] as? Double ?? 0, 0.05, accuracy: 0.005, "iem at −6 dB from vox")
        XCTAssertEqual(answer["batch_after_unsubscribe"] as? Int, 0, "/unsubscribe /mtr ended it")
        XCTAssertGreaterThan(answer["format_after_unsubscribe"] as? Int ?? 0, 0, "and only it")
        XCTAssertEqual(answer["format_count"] as? Int, 4)
        let packed = try XCTUnwrap(answer["format_values"] as? [Double])
        XCTAssertEqual(packed.count, 4)
        XCTAssertEqual(packed.first ?? 0, Double(X32FaderLaw.position(decibels: 0)), accuracy: 1e-6, "vox at 0 dB")
        XCTAssertEqual(Array(packed.suffix(2)), [1, 1], "both channels on")
        XCTAssertGreaterThanOrEqual(answer["xair_frames"] as? Int ?? 0, 10)
        XCTAssertEqual(answer["xair_bytes"] as? Int, 4 + 40 * 2)
        XCTAssertEqual(answer["xair_count"] as? Int, 40)
        XCTAssertEqual(answer["xair_ch1_db"] as? Double ?? 0, -20, accuracy: 1, "vox, dB × 256")
        XCTAssertEqual(answer["xair_bus1_db"] as? Double ?? 0, -26, accuracy: 1, "iem")
        let main = try XCTUnwrap(answer["xair_main_db"] as? [Double])
        XCTAssertEqual(main.first ?? 0, -20, accuracy: 1, "the main, L")
        XCTAssertEqual(main.last ?? 0, -20, accuracy: 1, "the main, R")
    }

    /// Bound to every interface, behringer-mixer connecting to this machine's LAN address reads that address back
    /// from `/xinfo`, and a `/xinfo` broadcast (an app's discovery) is answered with it, as an X32 and as an XR18.
    func testBoundToEveryInterfaceXInfoNamesTheLANAddress() throws {
        guard let lan = Host.current().addresses.first(where: { OSCPeer(host: $0, port: 1) != nil && !$0.hasPrefix("127.") }) else {
            throw XCTSkip("this machine has no IPv4 address but loopback")
        }
        let rig = try rig(bind: "0.0.0.0")
        defer { rig.live.close() }
        for (kind, port) in [("X32", rig.x32), ("XR18", rig.xair)] {
            let status = try XCTUnwrap(try client("behringer-info", kind, lan, String(port))["status"] as? [String: Any])
            XCTAssertEqual(status["ip_address"] as? String, lan, kind)
            XCTAssertEqual(status["type"] as? String, kind)
            let found = try client("discover", String(port))
            XCTAssertEqual(found["from"] as? String, lan, "the broadcast /xinfo answered from the LAN address")
            XCTAssertEqual((found["arguments"] as? [Any])?.compactMap { $0 as? String }, [lan, "X32 test", kind, kind == "X32" ? "4.06" : "1.17"])
        }
    }

    /// 10,000 malformed X32 messages (random bytes, bad and missing type tags, wrong types, out-of-range values, huge
    /// indexes, truncated packets, bundles) leave Foldback answering and its audio unchanged.
    func testTenThousandMalformedMessagesChangeNothing() throws {
        let rig = try rig()
        defer { rig.live.close() }
        let before = try rig.live.measuredGain(channel: 1)
        let fuzz = try OSCClient(serverPort: rig.x32)
        var generator = X32Fuzz(seed: 35)
        for batch in 0..<100 {
            for _ in 0..<100 { try fuzz.sendPacket(generator.next()) }
            // A flood may overflow the socket's receive buffer (UDP drops, as on a console): ask again a few times.
            var answer: OSCMessage?
            for _ in 0..<5 where answer == nil { answer = try fuzz.request(OSCMessage("/xinfo"), timeout: 2) { $0.path == "/xinfo" } }
            XCTAssertNotNil(answer, "answering after batch \(batch)")
        }
        XCTAssertTrue(rig.live.run.process.isRunning, "foldback still runs")
        XCTAssertEqual(decibels(try rig.live.measuredGain(channel: 1)), decibels(before), accuracy: 0.01, "audio unchanged")
        XCTAssertEqual(try rig.live.request("/foldback/strip/vox/gain_db/get"), OSCMessage("/foldback/strip/vox/gain_db", [.float(0)]))
        try rig.live.waitForLog("X32 port refused")
    }
}
