// Starts and stops a private `jackd` (dummy driver by default) for tests, demos and `--start-server`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

/// A private JACK server this process started and will stop.
///
/// Runs `jackd -n NAME -t 2000 -d DRIVER -r RATE -p PERIOD` with `JACK_NO_AUDIO_RESERVATION=1`,
/// its output going to a log file, and returns once a client can connect (polled, with a deadline).
/// ``stop()`` sends SIGTERM and waits; `deinit` stops it too.
public final class JACKServerLauncher: @unchecked Sendable {
    /// The server name clients pass to reach this server.
    public let serverName: String
    /// The sample rate the server runs at, in hertz.
    public let sampleRate: Int
    /// The period (frames per cycle).
    public let period: Int
    /// Where jackd's stdout and stderr go.
    public let logURL: URL

    private var process: Process
    private let lock = NSLock()
    private var isStopped = false

    /// A server name unlikely to clash with anyone else's: `prefix-<pid>-<random>`.
    public static func uniqueServerName(prefix: String = "foldback") -> String {
        "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The full path of `jackd` on PATH, or `nil`.
    public static func jackdPath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return directories.map { "\($0)/jackd" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Launches jackd and waits until it accepts clients.
    /// - Parameters:
    ///   - serverName: the `-n` name; defaults to a fresh ``uniqueServerName(prefix:)``.
    ///   - driver: the jackd backend (`dummy` makes no sound and needs no hardware).
    ///   - sampleRate: in hertz.
    ///   - period: frames per cycle.
    ///   - driverArguments: the arguments after `-d DRIVER` instead of `-r RATE -p PERIOD` (the `net` driver
    ///     takes its rate and period from the master; see ``JACKNetSlave``).
    ///   - logURL: where jackd's output goes; defaults to a file in the temporary directory.
    ///   - timeout: how long to wait for the server to accept clients, in seconds.
    /// - Throws: ``JACKError/jackdNotInstalled``, ``JACKError/serverStartFailed(serverName:detail:logPath:)``
    ///   or ``JACKError/serverStartTimedOut(serverName:seconds:logPath:)``.
    public init(
        serverName: String = JACKServerLauncher.uniqueServerName(), driver: String = "dummy",
        sampleRate: Int = 48_000, period: Int = 256, driverArguments: [String]? = nil, logURL: URL? = nil,
        timeout: Double = 10
    ) throws(JACKError) {
        guard let jackd = Self.jackdPath() else { throw .jackdNotInstalled }
        guard sampleRate > 0, period > 0 else {
            throw .invalidArgument("JACK sample rate and period must be positive (got \(sampleRate), \(period)).")
        }
        let log = logURL ?? FileManager.default.temporaryDirectory.appendingPathComponent("jackd-\(serverName).log")
        self.serverName = serverName
        self.sampleRate = sampleRate
        self.period = period
        self.logURL = log

        let arguments = ["-n", serverName, "-t", "2000", "-d", driver]
            + (driverArguments ?? ["-r", String(sampleRate), "-p", String(period)])
        let deadline = Date().addingTimeInterval(timeout)
        process = try Self.launch(jackd: jackd, arguments: arguments, serverName: serverName, log: log)
        while true {
            do {
                try waitUntilReady(until: deadline, timeout: timeout)
                return
            } catch {
                stop()
                // jack2 registers at most 8 servers per machine (and a server killed with SIGKILL keeps its slot); while
                // others run (a test suite's, say) a new one exits at once. One may end: try again until the deadline.
                guard case .serverStartFailed = error, Date() < deadline,
                      (try? String(contentsOf: log, encoding: .utf8))?.contains("Too many servers already active") == true
                else { throw error }
                Thread.sleep(forTimeInterval: 0.2)
                lock.withLock { isStopped = false }
                process = try Self.launch(jackd: jackd, arguments: arguments, serverName: serverName, log: log)
            }
        }
    }

    /// Starts `jackd` with `arguments`, its output into `log` (made afresh).
    private static func launch(jackd: String, arguments: [String], serverName: String, log: URL) throws(JACKError) -> Process {
        guard FileManager.default.createFile(atPath: log.path, contents: nil),
              let logHandle = try? FileHandle(forWritingTo: log)
        else { throw .serverStartFailed(serverName: serverName, detail: "cannot write \(log.path)", logPath: log.path) }
        defer { try? logHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: jackd)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_NO_AUDIO_RESERVATION"] = "1"
        process.environment = environment
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .serverStartFailed(serverName: serverName, detail: "\(error)", logPath: log.path)
        }
        return process
    }

    deinit { stop() }

    /// Whether jackd is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM and waits for jackd to exit (SIGKILL after 5 s). Safe to call twice.
    public func stop() {
        let alreadyStopped = lock.withLock {
            defer { isStopped = true }
            return isStopped
        }
        guard !alreadyStopped, process.processIdentifier > 0 else { return }
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { sendKill(process.processIdentifier) }
        process.waitUntilExit()
    }

    /// Kills jackd with SIGKILL, as when it crashes: no client is told, none is torn down in order.
    public func kill() {
        let alreadyStopped = lock.withLock {
            defer { isStopped = true }
            return isStopped
        }
        guard !alreadyStopped, process.processIdentifier > 0 else { return }
        if process.isRunning { sendKill(process.processIdentifier) }
        process.waitUntilExit()
    }

    /// Polls by opening a throwaway client until it succeeds, jackd exits, or the deadline passes.
    private func waitUntilReady(until deadline: Date, timeout: Double) throws(JACKError) {
        var interval = 0.005
        while true {
            if let client = try? JACKClient(name: "fb-launch-probe", serverName: serverName) {
                client.close()
                return
            }
            if !process.isRunning {
                let tail = (try? String(contentsOf: logURL, encoding: .utf8))?
                    .split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""
                throw .serverStartFailed(
                    serverName: serverName,
                    detail: "jackd exited with status \(process.terminationStatus)" + (tail.isEmpty ? "" : ": \(tail)"),
                    logPath: logURL.path)
            }
            guard Date() < deadline else {
                throw .serverStartTimedOut(serverName: serverName, seconds: timeout, logPath: logURL.path)
            }
            Thread.sleep(forTimeInterval: interval)
            interval = min(interval * 2, 0.1)
        }
    }
}

/// SIGKILL to `pid` (a free function, so the launcher's own `kill()` does not shadow the C call).
private func sendKill(_ pid: Int32) { _ = kill(pid, SIGKILL) }
