// A private headless PipeWire daemon for JACK tests (dummy driver, no devices, no session bus), under a unique name. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

/// A `pipewire` daemon this process started and will stop: the stand-in for a private `jackd -d dummy`
/// when the tests run through PipeWire's libjack (`FOLDBACK_TEST_SERVER=pipewire`, see
/// `scripts/pipewire-tests.sh`).
///
/// Runs `pipewire -c CONFIG` with `PIPEWIRE_CORE=name`, CONFIG being `scripts/pipewire-headless.conf` with its
/// clock set: its core (and socket) named ``name``, so a JACK client passing ``name`` as its server name reaches
/// it (PipeWire's libjack takes the server name as the remote name); the `support.node.driver` dummy driver at
/// ``sampleRate`` with the quantum pinned to ``quantum``; no devices, no D-Bus, no session manager. The socket lives in
/// `$PIPEWIRE_RUNTIME_DIR` or `$XDG_RUNTIME_DIR`. ``stop()`` sends SIGTERM and waits; `deinit` stops it too.
public final class PipeWireDaemon: @unchecked Sendable {
    /// The core and socket name: the JACK server name clients pass.
    public let name: String
    /// The dummy driver's sample rate, in hertz.
    public let sampleRate: Int
    /// The graph's period in frames (PipeWire's quantum), pinned: clients cannot change it.
    public let quantum: Int
    /// Where the daemon's output goes.
    public let logURL: URL
    /// The socket clients connect to.
    public let socketURL: URL

    private let process = Process()
    private let configURL: URL
    private let lock = NSLock()
    private var isStopped = false

    /// Why a daemon could not start.
    public struct StartFailure: Error, CustomStringConvertible {
        /// What went wrong, with the log's last lines when there is one.
        public let description: String
        /// Whether PipeWire is missing altogether (tests skip then, rather than fail).
        public let isNotInstalled: Bool

        /// A failure saying `description`.
        public init(description: String, isNotInstalled: Bool) {
            self.description = description
            self.isNotInstalled = isNotInstalled
        }
    }

    /// Whether the tests were asked to run on PipeWire instead of jackd (`FOLDBACK_TEST_SERVER=pipewire`).
    public static var isSelectedForTests: Bool {
        ProcessInfo.processInfo.environment["FOLDBACK_TEST_SERVER"] == "pipewire"
    }

    /// The full path of `pipewire` on PATH, or `nil`.
    public static func pipewirePath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return directories.map { "\($0)/pipewire" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Launches the daemon and waits until its socket accepts connections.
    /// - Parameters:
    ///   - name: the core and socket name (use a unique one, as for jackd's `-n`).
    ///   - sampleRate: in hertz.
    ///   - quantum: frames per cycle.
    ///   - timeout: how long to wait for the socket, in seconds.
    public init(name: String, sampleRate: Int = 48_000, quantum: Int = 256, timeout: Double = 20) throws(StartFailure) {
        guard let pipewire = Self.pipewirePath() else {
            throw StartFailure(description: "pipewire is not installed (Debian: pipewire pipewire-bin pipewire-jack)", isNotInstalled: true)
        }
        let environment = ProcessInfo.processInfo.environment
        guard let runtime = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw StartFailure(description: "PipeWire needs XDG_RUNTIME_DIR (or PIPEWIRE_RUNTIME_DIR) for its socket", isNotInstalled: false)
        }
        self.name = name
        self.sampleRate = sampleRate
        self.quantum = quantum
        let temporary = FileManager.default.temporaryDirectory
        logURL = temporary.appendingPathComponent("pipewire-\(name).log")
        configURL = temporary.appendingPathComponent("pipewire-\(name).conf")
        socketURL = URL(fileURLWithPath: runtime).appendingPathComponent(name)
        let config = try Self.config(sampleRate: sampleRate, quantum: quantum)
        do {
            try config.write(to: configURL, atomically: true, encoding: .utf8)
        } catch {
            throw StartFailure(description: "cannot write \(configURL.path): \(error)", isNotInstalled: false)
        }
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil), let log = try? FileHandle(forWritingTo: logURL) else {
            throw StartFailure(description: "cannot write \(logURL.path)", isNotInstalled: false)
        }
        defer { try? log.close() }
        process.executableURL = URL(fileURLWithPath: pipewire)
        process.arguments = ["-c", configURL.path]
        process.environment = environment.filter { $0.key != "PIPEWIRE_REMOTE" && $0.key != "LD_PRELOAD" }
            .merging(["PIPEWIRE_CORE": name]) { $1 }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw StartFailure(description: "cannot run \(pipewire): \(error)", isNotInstalled: false)
        }
        do { try waitUntilListening(timeout: timeout) } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: configURL)
    }

    /// Whether the daemon is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM and waits for the daemon to exit (SIGKILL after 5 s), as `systemctl --user stop pipewire`. Safe to call twice.
    public func stop() { end(signal: SIGTERM) }

    /// Kills the daemon with SIGKILL, as a crash: no client is told.
    public func kill() { end(signal: SIGKILL) }

    private func end(signal: Int32) {
        let alreadyStopped = lock.withLock {
            defer { isStopped = true }
            return isStopped
        }
        guard !alreadyStopped, process.processIdentifier > 0 else { return }
        process.stop(signal: signal, within: 5)
    }

    /// Polls until a Unix-socket connect to ``socketURL`` succeeds, the daemon exits, or the deadline passes.
    private func waitUntilListening(timeout: Double) throws(StartFailure) {
        let deadline = Date().addingTimeInterval(timeout)
        while !Self.acceptsConnections(socketURL.path) {
            if !process.isRunning {
                let tail = (try? String(contentsOf: logURL, encoding: .utf8))?
                    .split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""
                throw StartFailure(
                    description: "pipewire exited with status \(process.terminationStatus): \(tail) (log: \(logURL.path))",
                    isNotInstalled: false)
            }
            guard Date() < deadline else {
                throw StartFailure(description: "pipewire's socket \(socketURL.path) did not appear within \(timeout) s (log: \(logURL.path))",
                                   isNotInstalled: false)
            }
            usleep(10_000)
        }
    }

    /// Whether a stream socket at `path` accepts a connection now.
    static func acceptsConnections(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// The repository's `scripts/pipewire-headless.conf` (the modules a JACK client needs, a dummy and a freewheel
    /// driver, nothing else) with its clock pinned to `sampleRate` and `quantum`.
    static func config(sampleRate: Int, quantum: Int) throws(StartFailure) -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/pipewire-headless.conf")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw StartFailure(description: "cannot read \(url.path)", isNotInstalled: false)
        }
        let clock = ["rate": "\(sampleRate)", "allowed-rates": "[ \(sampleRate) ]", "quantum": "\(quantum)",
                     "min-quantum": "\(quantum)", "max-quantum": "\(quantum)"]
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3, words[1] == "=", words[0].hasPrefix("default.clock."),
                  let value = clock[String(words[0].dropFirst("default.clock.".count))] else { return String(line) }
            return line.prefix { $0 == " " } + "\(words[0]) = \(value)"
        }.joined(separator: "\n")
    }
}
