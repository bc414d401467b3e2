// `foldback run` through `jack_bufsize` changes during signal, and per-port latency as `jack_lsp -l` shows it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import XCTest

final class PeriodAndLatencyTests: JACKServerTestCase {
    /// `jack_bufsize` 32 → 4096 → 256 → 1024 → 64 → 2048 → 128 while noise plays: after each change the
    /// outputs equal the inputs sample by sample on a continuous take (the graph prepared for the engine's
    /// 4096-frame chunk needs no rebuild), foldback keeps running, and the audio thread made no
    /// allocation or free in the whole run (counted by the preloaded counter, reported on exit).
    func testPeriodChangesDuringSignalKeepTheOutputExactWithNoAudioThreadAllocation() throws {
        let server = try serverName
        let rig = try ResilienceRig(serverName: server, name: "fb-period-\(getpid())", testBundle: Bundle(for: Self.self), capacity: 16_384)
        let observer = try JACKClient(name: "fb-period-observer", serverName: server)
        defer { observer.close() }
        try waitFor("the jack_connect connections") { rig.connections(seenBy: observer) == rig.expectedConnectionLines }
        try rig.assertAudioFlows("at the start")
        for period in [32, 4096, 256, 1024, 64, 2048, 128] {
            _ = try JACKTools.run("jack_bufsize", String(period), server: server)
            try waitFor("a period of \(period) frames") { observer.bufferSize == period }
            try rig.assertAudioFlows(frames: max(2_048, 2 * period), "after jack_bufsize \(period)")
            XCTAssertTrue(rig.run.process.isRunning, "foldback runs on at \(period) frames")
        }
        XCTAssertEqual(rig.connections(seenBy: observer), rig.expectedConnectionLines, "period changes keep every connection")
        let (status, log) = rig.stop()
        XCTAssertEqual(status, 0, log)
        XCTAssertFalse(log.contains("could not re-prepare"), log)
        XCTAssertTrue(log.contains("audio path: 0 allocations, 0 frees"), "no malloc or free on the audio thread:\n\(log)")
    }

    /// Each port reports its own path's latency, not one graph-wide number: `limited` (1.5 ms lookahead,
    /// 72 frames) fed by `vox`, and `direct` (no limiter) fed by `vox` and `aux`. With `vox_in` connected to
    /// `system:capture_1` (capture latency C): limited = C+72, direct = 0…C, and in playback mode
    /// `vox_in` = 0…72 + P (P: `system:playback_1`'s latency downstream of `direct`), `aux_in` = P.
    func testJackLspShowsEachPortsOwnLatency() throws {
        let server = try serverName
        let name = "fb-latency-\(getpid())"
        let preset = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).toml")
        try """
            [[bus]]
            name = "limited"
            channels = 1

            [[bus]]
            name = "direct"
            channels = 1
            limiter = false
            connect = ["system:playback_1"]

            [[strip]]
            name = "vox"
            connect = ["system:capture_1"]
              [[strip.send]]
              bus = "limited"
              [[strip.send]]
              bus = "direct"

            [[strip]]
            name = "aux"
              [[strip.send]]
              bus = "direct"
            """.write(to: preset, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: preset) }
        let run = try FoldbackRun(["run", preset.path, "--server", server, "--name", name, "--quiet"], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let observer = try JACKClient(name: "fb-latency-observer", serverName: server)
        defer { observer.close() }
        // A headless PipeWire has no system ports (the connections only warn): its hardware latencies count as 0.
        let hasSystemPorts = !TestJACKServers.isPipeWire
        let capture = try hasSystemPorts ? XCTUnwrap(observer.latencyRange(ofPort: "system:capture_1", mode: .capture)).upperBound : 0
        let playback = try hasSystemPorts ? XCTUnwrap(observer.latencyRange(ofPort: "system:playback_1", mode: .playback)).upperBound : 0
        if hasSystemPorts { XCTAssertGreaterThan(capture, 0, "the dummy driver reports a capture latency") }
        let expected: [String: (capture: ClosedRange<Int>, playback: ClosedRange<Int>)] = [
            "\(name):limited": (capture + 72...capture + 72, 0...0),
            "\(name):direct": (0...capture, playback...playback),
            "\(name):vox_in": (capture...capture, min(72, playback)...max(72, playback)),
            "\(name):aux_in": (0...0, playback...playback),
        ]
        var listed: [String: (capture: ClosedRange<Int>, playback: ClosedRange<Int>)] = [:]
        try waitFor("jack_lsp -l shows the per-port latencies") {
            listed = Self.latencies(try JACKTools.run("jack_lsp", "-l", server: server))
            return expected.allSatisfy { port, ranges in listed[port].map { $0 == ranges } ?? false }
        }
        for (port, ranges) in expected {
            XCTAssertEqual(listed[port]?.capture, ranges.capture, "\(port) capture latency")
            XCTAssertEqual(listed[port]?.playback, ranges.playback, "\(port) playback latency")
        }
    }

    /// Parses `jack_lsp -l`: a port name line, then `port playback latency = [ a b ] frames` and
    /// `port capture latency = [ a b ] frames` lines.
    private static func latencies(_ listing: String) -> [String: (capture: ClosedRange<Int>, playback: ClosedRange<Int>)] {
        var result: [String: (capture: ClosedRange<Int>, playback: ClosedRange<Int>)] = [:]
        var port = ""
        var playback = 0...0
        for line in listing.split(separator: "\n").map(String.init) {
            guard line.hasPrefix("\t") || line.hasPrefix(" ") else {
                port = line
                continue
            }
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count == 2, numbers[0] <= numbers[1] else { continue }
            if line.contains("playback latency") { playback = numbers[0]...numbers[1] }
            if line.contains("capture latency") { result[port] = (numbers[0]...numbers[1], playback) }
        }
        return result
    }
}
