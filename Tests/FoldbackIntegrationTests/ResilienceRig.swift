// The resilience tests' rig: `foldback run` under the allocation counter with a test client, some connections from the preset, some made by jack_connect. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import XCTest
import FoldbackTestSupport

/// `foldback run` of a two-strip, two-bus preset (limiters off: zero latency, so every output sample
/// equals a known input sample), preloaded with the malloc counter, and a JACK test client playing
/// two noises and recording both buses.
///
/// Wiring: `vox_in` ← player `out_1` and `out` → recorder `in_1` come from the preset's `connect`
/// lists; `aux_in` ← player `out_2`, `patch` → recorder `in_2` and `midi_in` ← a MIDI sender's
/// `midi_out` are made by `jack_connect` after start, as a patchbay would. `patch` gets `aux` at −6 dB.
final class ResilienceRig {
    let name: String
    let serverName: String
    let run: FoldbackRun
    private(set) var client: JACKTestClient
    private(set) var midiSender: JACKTestMIDISender
    private let presetURL: URL
    static let signals: [TestSignal] = [.noise(seed: 71, level: -12), .noise(seed: 72, level: -12)]

    /// Every connection foldback's ports should have: (foldback port, other end).
    var expectedConnections: [(String, String)] {
        [("vox_in", "\(name)-player:out_1"), ("out", "\(name)-recorder:in_1"),
         ("aux_in", "\(name)-player:out_2"), ("patch", "\(name)-recorder:in_2"), ("midi_in", "\(name)-midi:midi_out")]
    }

    init(serverName: String, name: String, testBundle: Bundle, capacity: Int = 16_384) throws {
        self.name = name
        self.serverName = serverName
        presetURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).toml")
        try """
            [[bus]]
            name = "out"
            channels = 1
            limiter = false
            connect = ["\(name)-recorder:in_1"]

            [[bus]]
            name = "patch"
            channels = 1
            limiter = false

            [[strip]]
            name = "vox"
            connect = ["\(name)-player:out_1"]
              [[strip.send]]
              bus = "out"

            [[strip]]
            name = "aux"
              [[strip.send]]
              bus = "patch"
              gain_db = -6
            """.write(to: presetURL, atomically: true, encoding: .utf8)
        client = try Self.testClient(serverName: serverName, name: name, capacity: capacity)
        midiSender = try JACKTestMIDISender(name: "\(name)-midi", serverName: serverName)
        let counter = FoldbackRun.productsDirectory(testBundle: testBundle).appendingPathComponent("libFoldbackAllocCounter.so")
        run = try FoldbackRun(
            ["run", presetURL.path, "--server", serverName, "--name", name, "--quiet"], testBundle: testBundle,
            environment: ["LD_PRELOAD": counter.path])
        try run.waitUntilRunning()
        for (port, peer) in expectedConnections[2...] {
            let (source, destination) = port.hasSuffix("_in") ? (peer, "\(name):\(port)") : ("\(name):\(port)", peer)
            _ = try JACKTools.run("jack_connect", source, destination, server: serverName)
        }
    }

    deinit {
        client.close()
        midiSender.close()
        run.stop()
        try? FileManager.default.removeItem(at: presetURL)
    }

    private static func testClient(serverName: String, name: String, capacity: Int) throws(JACKError) -> JACKTestClient {
        try JACKTestClient(serverName: serverName, signals: signals, recordChannels: 2, capacity: capacity, namePrefix: name)
    }

    /// Closes the test clients (the player, the recorder and the MIDI sender), as a server going away does.
    func closeClients() {
        client.close()
        midiSender.close()
    }

    /// Opens new test clients (after a server restart) under the same names.
    func reopenClient(capacity: Int = 16_384) throws {
        closeClients()
        client = try Self.testClient(serverName: serverName, name: name, capacity: capacity)
        midiSender = try JACKTestMIDISender(name: "\(name)-midi", serverName: serverName)
    }

    /// The connections `observer` sees on foldback's ports, as (port, other end), sorted.
    func connections(seenBy observer: JACKClient) -> [String] {
        ["vox_in", "aux_in", "out", "patch", "midi_in"].flatMap { port in
            observer.connections(ofPort: "\(name):\(port)").map { "\(port) ↔ \($0)" }
        }.sorted()
    }

    /// The expected connections in the form of ``connections(seenBy:)``.
    var expectedConnectionLines: [String] { expectedConnections.map { "\($0.0) ↔ \($0.1)" }.sorted() }

    /// Records a continuous take and checks it sample by sample: `out` = player 1, `patch` = player 2 at −6 dB.
    func assertAudioFlows(frames: Int = 2_048, _ context: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let recording = try client.record(frames: frames, settleFrames: 512, attempts: 5)
        let halfGain = pow(10, -6.0 / 20)
        let outError = SignalCheck.maxError(recording, channel: 0) { Double(client.expectedSample(channel: 0, frameTime: $0)) }
        let patchError = SignalCheck.maxError(recording, channel: 1) {
            Double(client.expectedSample(channel: 1, frameTime: $0)) * halfGain
        }
        XCTAssertLessThan(outError, 1e-6, "\(context): out = vox_in (preset connections)", file: file, line: line)
        XCTAssertLessThan(patchError, 1e-6, "\(context): patch = aux_in −6 dB (jack_connect connections)", file: file, line: line)
        XCTAssertGreaterThan(SignalCheck.peak(recording, channel: 1), 0.05, "\(context): patch carries signal", file: file, line: line)
    }

    /// Stops foldback with SIGINT and returns its exit status and standard error.
    func stop() -> (status: Int32, standardError: String) {
        run.stop()
        return (run.process.terminationStatus, run.standardError)
    }
}

