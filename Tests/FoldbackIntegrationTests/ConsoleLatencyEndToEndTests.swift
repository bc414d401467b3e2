// `foldback run` with an effect bus, its return and paths of different latency: the ports JACK sees and the aligned latency they report. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import Foundation
import XCTest

final class ConsoleLatencyEndToEndTests: JACKServerTestCase {
    /// `vox` (a 2 ms lookahead compressor) and `fast` (none) both feed `main` (compensated) and `raw`
    /// (`compensate = false`), and `fast` feeds the effect bus `fx` returned into both. Neither the effect bus
    /// nor the return has ports; `main` reports one latency (capture + 96 frames) on every path, `raw` the
    /// spread (capture + 0 … capture + 96).
    func testEffectBusesHaveNoPortsAndBusesReportAlignedLatency() throws {
        let folder = try LiveControlRig.temporaryFolder()
        let preset = folder + "/console.toml"
        try """
            [[bus]]
            name = "main"
            channels = 1
            limiter = false
            [[bus]]
            name = "raw"
            channels = 1
            limiter = false
            compensate = false
            [[bus]]
            name = "fx"
            channels = 1
            output = false
            limiter = false
            [[strip]]
            name = "vox"
              [[strip.unit]]
              type = "compressor"
              lookahead_ms = 2.0
              [[strip.send]]
              bus = "main"
              [[strip.send]]
              bus = "raw"
            [[strip]]
            name = "fast"
              [[strip.send]]
              bus = "main"
              [[strip.send]]
              bus = "raw"
              [[strip.send]]
              bus = "fx"
            [[strip]]
            name = "fx_ret"
            return = "fx"
              [[strip.send]]
              bus = "main"
              [[strip.send]]
              bus = "raw"
            """.write(toFile: preset, atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(server: serverName, arguments: [preset], testCase: self)
        defer { rig.close() }
        let client = rig.clientName
        let ports = Set(rig.lister.portNames(matching: "\(client):.*", audioOnly: true))
        XCTAssertEqual(ports, ["\(client):vox_in", "\(client):fast_in", "\(client):main", "\(client):raw"], "no ports for fx or fx_ret")
        // The rig's player (capture latency 0) already feeds vox_in; system:capture_1 (the dummy driver's
        // capture latency) feeds fast_in.
        XCTAssertNil(rig.lister.connect(from: "system:capture_1", to: "\(client):fast_in"))
        let added = Int((0.002 * Double(Self.sampleRate)).rounded())
        let capture = try XCTUnwrap(rig.lister.latencyRange(ofPort: "system:capture_1", mode: .capture)).upperBound
        XCTAssertGreaterThan(capture, added, "the dummy driver's capture latency exceeds the vocal's lookahead")
        // JACK recomputes latencies after a connection on its own thread: wait for the raw bus to show the spread.
        let deadline = Date().addingTimeInterval(10)
        while rig.lister.latencyRange(ofPort: "\(client):raw", mode: .capture) != added...capture, Date() < deadline {
            usleep(10_000)
        }
        XCTAssertEqual(rig.lister.latencyRange(ofPort: "\(client):vox_in", mode: .capture), 0...0)
        let main = try XCTUnwrap(rig.lister.latencyRange(ofPort: "\(client):main", mode: .capture))
        let raw = try XCTUnwrap(rig.lister.latencyRange(ofPort: "\(client):raw", mode: .capture))
        XCTAssertEqual(main, added...(capture + added), "main: every path is 96 frames behind its input (vox 0 + 96, fast \(capture) + 96)")
        XCTAssertEqual(raw, added...capture, "raw: the fast path keeps its input's latency (vox 0 + 96, fast \(capture) + 0)")
    }
}
