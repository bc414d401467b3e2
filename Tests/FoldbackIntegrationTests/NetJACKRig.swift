// The netjack2 tests' stage on one host over 127.0.0.1: a dummy master with netmanager, `foldback run --start-server net` slaves, a test client on the master. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackTestSupport
import FoldbackJACKTesting
import XCTest

/// A stage box on loopback: `jackd -d dummy` (the master, optionally inside a network namespace) with JACK's
/// `netmanager` on a UDP port of its own, so parallel runs never meet; Foldback slaves started with
/// `--start-server net --master 127.0.0.1`, each running a one-strip, one-bus preset (`system:capture_1` →
/// strip → in-ear bus → `system:playback_1`, limiter off: unity gain); and a test client on the master playing
/// noise into each slave's `to_slave_1` and recording its `from_slave_1`. No traffic leaves 127.0.0.0/8.
final class NetJACKRig {
    let masterName = JACKServerLauncher.uniqueServerName(prefix: "fbnetmaster")
    /// The netmanager's UDP port: one per rig, spaced so a master's and its slaves' ports never overlap another rig's.
    let port = 20_000 + 50 * Int.random(in: 0..<800)
    let period: Int
    /// Runs every master-side and slave-side process inside a network namespace (`nsenter …`), or empty.
    let prefix: [String]
    let slaveNames: [String]
    private(set) var master: Process?
    private(set) var slaves: [FoldbackRun] = []
    private(set) var client: JACKTestClient?
    private var presets: [URL] = []
    static let signal = TestSignal.noise(seed: 91, level: -12)

    /// Starts the master and its netmanager, then one Foldback slave per name (their buses named after them).
    init(slaveNames: [String], period: Int = 128, prefix: [String] = [], testBundle: Bundle, quiet: Bool = true) throws {
        self.period = period
        self.prefix = prefix
        self.slaveNames = slaveNames
        try startMaster()
        for name in slaveNames {
            let preset = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).toml")
            try """
                [[strip]]
                name = "vox"
                connect = ["system:capture_1"]
                send = [{ bus = "\(name)" }]

                [[bus]]
                name = "\(name)"
                channels = 1
                limiter = false   # unity, no lookahead
                in_ear = true     # held to the 5 ms round trip, the network's part included
                connect = ["system:playback_1"]
                """.write(to: preset, atomically: true, encoding: .utf8)
            presets.append(preset)
            let run = try FoldbackRun(
                ["run", preset.path, "--start-server", "net", "--master", "127.0.0.1", "--net-port", String(port),
                 "--net-name", name, "--server", "\(name)-slave", "--name", name] + (quiet ? ["--quiet"] : []),
                testBundle: testBundle, standardOutput: quiet ? nil : FileHandle.nullDevice, prefix: prefix)
            slaves.append(run)
        }
        for run in slaves { try run.waitUntilRunning(timeout: 20) }
        try openClient()
    }

    deinit {
        client?.close()
        for run in slaves { run.stop() }
        stopMaster()
        // A killed jackd leaves its slot in JACK's server registry (8 slots in all) until a server of the same
        // name starts: start one and stop it cleanly. (With netmanager loaded, jackd takes 20 s or more to
        // exit on SIGTERM, and jack_unload can hang.)
        (try? JACKServerLauncher(serverName: masterName, timeout: 5))?.stop()
        for preset in presets { try? FileManager.default.removeItem(at: preset) }
    }

    /// Starts `jackd -d dummy` under ``masterName`` and loads netmanager on ``port`` at 127.0.0.1.
    func startMaster() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = prefix + ["jackd", "-n", masterName, "-t", "2000", "-d", "dummy", "-r", "48000", "-p", String(period)]
        process.environment = ProcessInfo.processInfo.environment.merging(["JACK_NO_AUDIO_RESERVATION": "1"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        master = process
        try waitFor("the master '\(masterName)' accepts clients", timeout: 10) {
            guard process.isRunning else { throw NetRigFailure("the master jackd exited") }
            guard let probe = try? JACKClient(name: "fb-net-probe", serverName: masterName) else { return false }
            probe.close()
            return true
        }
        _ = try JACKTools.run("jack_load", "-s", masterName, "netmanager", "-i", "-a 127.0.0.1 -p \(port)", server: masterName)
    }

    /// Kills the master with SIGKILL (a stage box losing power), closing the test client first.
    /// Its registry slot is taken back when the master starts again under the same name.
    func killMaster() {
        closeClient()
        stopMaster()
    }

    /// Closes the test client on the master.
    func closeClient() {
        client?.close()
        client = nil
    }

    private func stopMaster() {
        guard let master, master.isRunning else { return }
        kill(master.processIdentifier, SIGKILL)
        _ = master.waitUntilExit(within: 5)
    }

    /// The master's port names of slave `name`.
    func toSlave(_ name: String) -> String { "\(name):to_slave_1" }
    func fromSlave(_ name: String) -> String { "\(name):from_slave_1" }

    /// Opens the test client on the master once every slave's ports are there, and connects it.
    func openClient(timeout: Double = 10) throws {
        client?.close()
        // A master busy dropping a dead slave can refuse a new client for a moment: try again until the deadline.
        var opened: JACKClient?
        try waitFor("an observer on the master", timeout: timeout) {
            opened = try? JACKClient(name: "fb-net-observer", serverName: masterName)
            return opened != nil
        }
        guard let observer = opened else { return }
        defer { observer.close() }
        try waitFor("every slave's ports on the master", timeout: timeout) {
            slaveNames.allSatisfy { !observer.portNames(matching: "^\($0):from_slave_1$").isEmpty }
        }
        var testClient: JACKTestClient?
        try waitFor("the test client on the master", timeout: timeout) {
            testClient = try? JACKTestClient(
                serverName: masterName, signals: Array(repeating: Self.signal, count: slaveNames.count),
                recordChannels: slaveNames.count, capacity: 48_000 * 4, namePrefix: "fb-net-\(getpid())")
            return testClient != nil
        }
        guard let client = testClient else { return }
        self.client = client
        // netmanager activates a slave's client just after registering its ports; JACK refuses connections until then.
        try waitFor("the test client connected to every slave's ports", timeout: timeout) {
            for (index, name) in slaveNames.enumerated() {
                _ = client.player.connect(channel: index, to: toSlave(name))   // an existing connection is refused: harmless
                _ = client.recorder.connect(from: fromSlave(name), toChannel: index)
            }
            return slaveNames.allSatisfy {
                observer.connections(ofPort: toSlave($0)).count == 1 && observer.connections(ofPort: fromSlave($0)).count == 1
            }
        }
    }

    /// The round trip slave `index` says the network adds ("the network latency is N frames").
    func reportedLatency(slave index: Int) throws -> Int {
        let text = slaves[index].standardError
        guard let range = text.range(of: #"the network latency is \d+ frames"#, options: .regularExpression),
              let frames = Int(text[range].split(separator: " ")[4]) else {
            throw NetRigFailure("slave \(slaveNames[index]) did not report its network latency:\n\(text)")
        }
        return frames
    }

    /// The delay, frames, at which `channel` of `recording` equals what the player played (to 1e-6 on every
    /// sample), or nil if none up to `maxLag` does.
    func lag(of recording: JACKRecording, channel: Int, maxLag: Int = 4_096) -> Int? {
        guard let client else { return nil }
        let samples = recording.channels[channel]
        let matches = { (lag: Int, count: Int) -> Bool in
            (0..<count).allSatisfy { index in
                let time = recording.frameTime(ofSample: index) &- UInt32(lag)
                return abs(samples[index] - client.expectedSample(channel: channel, frameTime: time)) < 1e-6
            }
        }
        return (0...maxLag).first { matches($0, min(64, samples.count)) && matches($0, samples.count) }
    }

    /// Level of `channel` against the player's at `lag`, dB (RMS over the recording).
    func gainDB(of recording: JACKRecording, channel: Int, lag: Int) -> Double {
        guard let client else { return -.infinity }
        var (recorded, played) = (0.0, 0.0)
        for (index, sample) in recording.channels[channel].enumerated() {
            let expected = Double(client.expectedSample(channel: channel, frameTime: recording.frameTime(ofSample: index) &- UInt32(lag)))
            recorded += Double(sample) * Double(sample)
            played += expected * expected
        }
        return 10 * log10(recorded / played)
    }
}

/// A rig step that failed, with what it saw.
struct NetRigFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
