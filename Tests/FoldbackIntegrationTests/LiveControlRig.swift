// `foldback run` with OSC on, a test client wired to a vox strip and a main bus, and an OSC client. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import FoldbackJACKTesting
import Foundation
import XCTest
import FoldbackTestSupport

/// A running `foldback run --osc-port 0` (plus any extra options), its OSC port, a JACK test client
/// playing into `vox_in` and recording `main`, and an OSC client talking to it.
final class LiveControlRig {
    let run: FoldbackRun
    private(set) var client: JACKTestClient
    let lister: JACKClient
    let osc: OSCClient
    let oscPort: UInt16
    let clientName: String

    /// The ports the test client plays into and records from (short names).
    let playInto: [String], recordFrom: [String]

    /// Starts foldback on `server` with `arguments` (a preset or `--setlist FILE`, and options) and wires it:
    /// `signals` (default: `signal` alone) play into `playInto`, the recorder takes `recordFrom`.
    init(
        server: String, arguments: [String], signal: TestSignal = .noise(seed: 3, level: -20), capacity: Int = 48_000, testCase: XCTestCase,
        signals: [TestSignal]? = nil, playInto: [String] = ["vox_in"], recordFrom: [String] = ["main"]
    ) throws {
        (self.playInto, self.recordFrom) = (playInto, recordFrom)
        clientName = "fb-ctl-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        run = try FoldbackRun(
            ["run"] + arguments + ["--server", server, "--no-connect", "--quiet", "--name", clientName, "--osc-port", "0"],
            testBundle: Bundle(for: type(of: testCase)))
        try run.waitUntilRunning()
        oscPort = try run.announcedOSCPort()
        osc = try OSCClient(serverPort: oscPort)
        lister = try JACKClient(name: "\(clientName)-lister", serverName: server)
        client = try Self.wiredClient(
            server: server, clientName: clientName, signals: signals ?? [signal], playInto: playInto, recordFrom: recordFrom, capacity: capacity)
    }

    /// A test client playing `signals` into `playInto` and recording `recordFrom`.
    private static func wiredClient(
        server: String, clientName: String, signals: [TestSignal], playInto: [String], recordFrom: [String], capacity: Int
    ) throws -> JACKTestClient {
        let client = try JACKTestClient(
            serverName: server, signals: signals, recordChannels: recordFrom.count, capacity: capacity, namePrefix: "\(clientName)-t")
        XCTAssertEqual(client.connectPlayer(to: playInto.map { "\(clientName):\($0)" }), [])
        XCTAssertEqual(client.connectRecorder(from: recordFrom.map { "\(clientName):\($0)" }), [])
        return client
    }

    /// Replaces the test client with a new one on `server` (after a server restart), wired the same way.
    /// Close the old client as soon as its server stops: libjack cannot close it once a new server runs.
    func rewire(server: String, signal: TestSignal = .noise(seed: 3, level: -20), capacity: Int = 48_000) throws {
        client = try Self.wiredClient(
            server: server, clientName: clientName, signals: [signal], playInto: playInto, recordFrom: recordFrom, capacity: capacity)
    }

    deinit { close() }

    func close() {
        client.close()
        lister.close()
        run.stop()
    }

    /// The gain from the played signal to `main` (or recorded channel `channel`; least squares, no latency:
    /// presets here have no limiter), measured on a take without xruns after `settleFrames`.
    func measuredGain(channel: Int = 0, frames: Int = 8_192, settleFrames: Int = 4_800) throws -> Double {
        let recording = try client.record(frames: frames, settleFrames: settleFrames, attempts: 5)
        var product = 0.0, energy = 0.0
        for (index, sample) in recording.channels[channel].enumerated() {
            let played = Double(client.expectedSample(channel: 0, frameTime: recording.frameTime(ofSample: index)))
            product += Double(sample) * played
            energy += played * played
        }
        return energy > 0 ? product / energy : 0
    }

    /// Sends `path arguments…` and returns the first reply (nil after `timeout` seconds).
    func request(_ path: String, _ arguments: [OSCArgument] = [], timeout: Double = 10) throws -> OSCMessage? {
        try osc.request(OSCMessage(path, arguments), timeout: timeout) { reply in
            !["strip", "bus", "unit", "loudness", "dose"].contains { reply.path.hasPrefix("/foldback/meters/\($0)/") }
        }
    }

    /// Sends one message with liblo's `oscsend` tool (`oscsend localhost PORT PATH TYPES VALUES…`).
    func oscsend(_ path: String, _ types: String, _ values: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["oscsend", "127.0.0.1", String(oscPort), path, types] + values
        try process.run()
        XCTAssertTrue(process.waitUntilExit(within: 10), "oscsend ended")
        XCTAssertEqual(process.terminationStatus, 0, "oscsend (Debian liblo-tools) ran")
    }

    /// Waits until foldback's standard error contains `text`.
    func waitForLog(_ text: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !run.standardError.contains(text) {
            guard Date() < deadline else { throw FoldbackRun.Failure("no '\(text)' in foldback's log within \(timeout) s:\n\(run.standardError)") }
            usleep(20_000)
        }
    }

    /// A preset with a mono strip `vox` (fader `voxGainDB`) into a mono bus `main` without limiter,
    /// plus `extra` TOML (more strips, say), written to `path`.
    static func writePreset(to path: String, voxGainDB: Double, extra: String = "") throws {
        try """
            [preset]
            name = "vox \(voxGainDB) dB"
            [[bus]]
            name = "main"
            channels = 1
            limiter = false
            [[strip]]
            name = "vox"
            gain_db = \(voxGainDB)
              [[strip.send]]
              bus = "main"
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `foldback run --watch` of a fresh `live.toml` (vox at −2 dB, measured) in a fresh folder: the rig and the preset's path.
    static func watchingLivePreset(server: String, testCase: XCTestCase) throws -> (rig: LiveControlRig, preset: String) {
        let preset = try temporaryFolder() + "/live.toml"
        try writePreset(to: preset, voxGainDB: -2)
        let rig = try LiveControlRig(server: server, arguments: [preset, "--watch"], testCase: testCase)
        XCTAssertEqual(decibels(try rig.measuredGain()), -2, accuracy: 0.1)
        return (rig, preset)
    }

    /// A fresh temporary folder for a test's presets.
    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Decibels of a linear gain ratio.
func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
