// One sandbox process as Foldback supervises it: start, fault detection (crash, hang, garbage), restart, give up. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
public import FoldbackLV2
import Foundation
import Glibc
import Logging
import Synchronization

/// A `foldback-sandbox` process hosting one plugin, watched by ``SandboxSupervisor``: a sandbox that crashed, missed
/// ``hangCycles`` deadlines in a row or produced garbage that resets of its plugins do not cure (for ``garbageSeconds``
/// in a row, or ``garbageRunLimit`` times within a second) is killed and started again with the plugin's last control
/// values (the audio thread meanwhile bypasses or mutes the unit, then fades it back in); three faults within a minute
/// leave it bypassed until ``reenable()``. Garbage that a reset cures (as the engine's NaN guard does in Foldback's
/// process) is logged, not a fault.
public final class SandboxProcess: @unchecked Sendable {
    /// Deadlines missed in a row that count as a hang.
    public static let hangCycles = 8
    /// How long garbage (NaN, infinite or above +24 dBFS output) may go on through the reset its first cycle asked for
    /// before it is a fault.
    public static let garbageSeconds = 0.1
    /// Runs of garbage within a second, each through a reset, that make a fault (a plugin that a reset cures only for
    /// a moment).
    public static let garbageRunLimit = 3
    /// Faults within ``faultWindow`` that leave the plugin bypassed.
    public static let faultLimit = 3
    public static let faultWindow: Duration = .seconds(60)
    /// How long a starting sandbox may take to report ready.
    public static let startTimeout: Duration = .seconds(10)

    /// What the supervisor and the status line see.
    public enum Phase: Sendable, Equatable {
        /// Starting for the first time, or again after a fault.
        case starting
        /// Serving its plugin.
        case running
        /// Faulted too often: bypassed until re-enabled.
        case faulted
        /// Stopped with its unit.
        case stopped
    }

    /// The plugin and where it sits, for log lines.
    public let label: String
    public let channel: SandboxChannel
    private let executable: String
    private let state: Mutex<State>
    /// One request to the sandbox's command thread at a time.
    private let requests = Mutex(())
    private static let logger = Logger(label: "foldback.sandbox")

    private struct State {
        /// What the next start hosts: the unit's recipe, with the state file last captured from the sandbox.
        var configuration: SandboxConfiguration
        var process: Process?
        var phase: Phase = .starting
        var startedAt = ContinuousClock.now
        var faults: [ContinuousClock.Instant] = []
        var lastFault: String?
        var restarts = 0
        /// The garbage count last logged, and when (a plugin's cured garbage is logged at most once a second).
        var garbageLogged = 0
        var garbageLoggedAt: ContinuousClock.Instant?
        /// When each recent run of garbage was seen (the last second's), and the run count last seen.
        var garbageRunTimes: [ContinuousClock.Instant] = []
        var garbageRunsSeen = 0
    }

    init(configuration: SandboxConfiguration, channel: SandboxChannel, executable: String) {
        state = Mutex(State(configuration: configuration))
        self.channel = channel
        self.executable = executable
        label = configuration.label
    }

    /// The `foldback-sandbox` executable: `FOLDBACK_SANDBOX`, else beside this process's executable (a build
    /// folder), else `../lib/foldback/foldback-sandbox` from it (where `make install` and the package put it).
    public static func locateExecutable() throws(SandboxError) -> String {
        if let override = ProcessInfo.processInfo.environment["FOLDBACK_SANDBOX"] {
            guard access(override, X_OK) == 0 else { throw .executableMissing(path: override) }
            return override
        }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = (me as NSString).deletingLastPathComponent
        let beside = folder + "/foldback-sandbox"
        let installed: String = ((folder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("lib/foldback/foldback-sandbox")
        guard let path = [beside, installed].first(where: { (candidate: String) in access(candidate, X_OK) == 0 }) else { throw .executableMissing(path: beside) }
        return path
    }

    /// The current phase.
    public var phase: Phase { state.withLock { $0.phase } }
    /// How the last fault looked (`crashed: signal 11 (SIGSEGV)`, `hang: …`, `garbage: …`), if any.
    public var lastFault: String? { state.withLock { $0.lastFault } }
    /// Restarts after faults so far.
    public var restarts: Int { state.withLock { $0.restarts } }
    /// The sandbox's process id, while one runs.
    public var processIdentifier: Int32? { state.withLock { $0.process.map(\.processIdentifier) } }

    /// Starts the process (the first time, or again after a fault).
    func launch() throws(SandboxError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let configuration = state.withLock { $0.configuration }
        let json = (try? JSONEncoder().encode(configuration)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        process.arguments = ["--configuration", json]
        // A crashing plugin must end the sandbox at once: Swift's backtracer would keep it alive for seconds.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        do {
            try process.run()
        } catch {
            throw .launch(reason: "\(executable): \(error.localizedDescription)")
        }
        state.withLock {
            $0.process = process
            $0.startedAt = .now
        }
    }

    /// Waits (off the audio thread) until the sandbox is ready, failed or gone, at most ``startTimeout``; true when ready.
    func waitUntilStarted() -> Bool {
        let deadline = ContinuousClock.now + Self.startTimeout
        while ContinuousClock.now < deadline {
            if channel.isReady { return true }
            if channel.state == 2 || !(state.withLock { $0.process?.isRunning ?? false }) { return false }
            usleep(1000)
        }
        return channel.isReady
    }

    /// One supervision step (the supervisor's thread): notices a fault and restarts, or notices the sandbox came back.
    func check() {
        var (phase, process, startedAt) = state.withLock { ($0.phase, $0.process, $0.startedAt) }
        guard phase == .starting || phase == .running, let process else { return }
        if phase == .starting, process.isRunning, channel.isReady {   // back (and then watched like any other)
            let took = ContinuousClock.now - startedAt
            state.withLock { $0.phase = .running }
            phase = .running
            if restarts > 0 { Self.logger.notice("\(label) came back \(Self.milliseconds(took)) ms after its restart") }
        }
        if !process.isRunning {
            let how = process.terminationReason == .uncaughtSignal
                ? "crashed: signal \(process.terminationStatus) (\(Self.signalName(process.terminationStatus)))"
                : channel.state == 2 ? "failed to start: exit status \(process.terminationStatus)"
                : "exited: status \(process.terminationStatus)"
            fault(how)
        } else if channel.garbageInARow >= garbageCycles {
            fault("garbage: NaN, infinite or above +24 dBFS output for \(channel.garbageInARow) cycles in a row, through a reset of its plugins")
        } else if recentGarbageRuns() >= Self.garbageRunLimit {
            fault("garbage: NaN, infinite or above +24 dBFS output \(Self.garbageRunLimit) times within a second, through resets of its plugins")
        } else if channel.lateInARow >= Self.hangCycles {
            fault("hang: missed \(channel.lateInARow) deadlines in a row")
        } else if phase == .starting, ContinuousClock.now - startedAt > Self.startTimeout {
            fault("hang: not ready \(Self.milliseconds(Self.startTimeout)) ms after starting")
        } else {
            logCuredGarbage()
        }
    }

    /// Cycles of garbage in a row that make a fault: ``garbageSeconds`` of the configuration's periods (its maximum block
    /// offline), at least ``hangCycles``.
    private var garbageCycles: Int {
        let configuration = state.withLock { $0.configuration }
        let block = Double(configuration.nominalBlockLength ?? configuration.maxFrames)
        return max(Self.hangCycles, Int((Self.garbageSeconds * configuration.sampleRate / max(1, block)).rounded(.up)))
    }

    /// Runs of garbage the channel counted within the last second.
    private func recentGarbageRuns() -> Int {
        let runs = channel.garbageRuns
        let now = ContinuousClock.now
        return state.withLock { state in
            let new = runs >= state.garbageRunsSeen ? runs - state.garbageRunsSeen : runs   // rearmed: counted from 0
            state.garbageRunsSeen = runs
            state.garbageRunTimes = state.garbageRunTimes.filter { now - $0 < .seconds(1) } + Array(repeating: now, count: min(new, Self.garbageRunLimit))
            return state.garbageRunTimes.count
        }
    }

    /// Logs garbage the sandbox's reset cured (a cycle fell back), at most once a second.
    private func logCuredGarbage() {
        let count = channel.garbage
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            guard count > state.garbageLogged, channel.garbageInARow == 0 else {
                if count < state.garbageLogged { state.garbageLogged = count }   // the channel was rearmed
                return nil
            }
            if let last = state.garbageLoggedAt, now - last < .seconds(1) { return nil }
            let cycles = count - state.garbageLogged
            state.garbageLogged = count
            state.garbageLoggedAt = now
            return "\(label) gave garbage (NaN, infinite or above +24 dBFS output) in \(cycles) \(cycles == 1 ? "cycle" : "cycles"): "
                + "its plugins were reset and play on"
        }
        if let line { Self.logger.warning("\(line)") }
    }

    /// Kills the process, counts the fault and restarts it, or leaves the plugin bypassed after too many.
    private func fault(_ detected: String) {
        // A sandbox that ended by itself while it looked hung (its end is seen a little after the missed deadlines) crashed
        // or exited (a RealtimeSanitizer abort in the sandbox is an exit).
        let ended = kill()
        var how = detected
        if let ended, ended.byItself || ended.signal.map({ $0 != SIGKILL }) == true, !detected.hasPrefix("crashed"), !detected.hasPrefix("exited") {
            how = ended.signal.map { "crashed: signal \($0) (\(Self.signalName($0)))" } ?? "exited: status \(ended.status)"
        }
        channel.rearm()
        let now = ContinuousClock.now
        let faults = state.withLock { state -> Int in
            state.faults = state.faults.filter { now - $0 < Self.faultWindow } + [now]
            state.garbageRunTimes = []   // the channel's garbage counters restart with the new sandbox
            state.garbageRunsSeen = 0
            state.garbageLogged = 0
            state.lastFault = how
            return state.faults.count
        }
        if faults >= Self.faultLimit {
            state.withLock { $0.phase = .faulted }
            Self.logger.error("\(label) faulted (\(how)); \(faults) faults within a minute: it stays bypassed until re-enabled")
            return
        }
        Self.logger.error("\(label) faulted (\(how)): bypassed, restarting its sandbox")
        restart()
    }

    private func restart() {
        state.withLock {
            $0.phase = .starting
            $0.restarts += 1
        }
        do {
            try launch()
        } catch {
            Self.logger.error("\(label): \(error.description)")
            state.withLock { $0.phase = .faulted }
        }
    }

    /// How long a state save may take in the sandbox.
    public static let requestTimeout: Duration = .seconds(10)

    /// The state file a restart restores to the first (or only) plugin (the preset's, or the one last captured by ``saveState(to:member:)``).
    public var stateFile: String? { stateFile(member: 0) }

    /// The state file a restart restores to plugin `member` of the sandbox's chain.
    public func stateFile(member: Int) -> String? { state.withLock { $0.configuration.plugins[member].stateFile } }

    /// Asks the sandbox to save its plugin's (or its chain's plugin `member`'s) state (control inputs and the plugin's own) as a lilv state bundle in
    /// `directory`, as ``LV2Unit/saveState(to:)`` does in Foldback's process (a dual-mono pair's right instance in
    /// `directory-right`), off the audio thread and without disturbing its cycles. A later restart of this sandbox
    /// re-instantiates the plugin from that state (then applies the last control values Foldback set).
    public func saveState(to directory: String, member: Int = 0) throws(SandboxError) -> LV2SavedState {
        let path = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        let answer = requests.withLock { _ in
            channel.isReady ? channel.request(FB_SANDBOX_COMMAND_SAVE_STATE, text: "\(member)\n\(path)", timeout: Self.requestTimeout) {
                state.withLock { $0.process?.isRunning ?? false }
            } : nil
        }
        guard let answer else { throw .request(reason: "\(label): its sandbox is not running (\(lastFault ?? "starting")): state not saved") }
        guard answer.status == 0 else { throw .request(reason: "\(label): \(answer.text)") }
        let paths = answer.text.split(separator: "\n").map(String.init)
        guard let first = paths.first else { throw .request(reason: "\(label): the sandbox saved no state") }
        let saved = LV2SavedState(path: first, rightPath: paths.dropFirst().first)
        state.withLock {
            $0.configuration.plugins[member].stateFile = saved.path
            $0.configuration.plugins[member].rightStateFile = saved.rightPath
        }
        return saved
    }

    /// Starts a plugin left bypassed after too many faults again (the engineer's re-enable).
    public func reenable() {
        guard phase == .faulted else { return }
        state.withLock { $0.faults = [] }
        Self.logger.notice("\(label) re-enabled")
        channel.rearm()
        restart()
    }

    /// Ends the process for good (the unit is going away).
    func stop() {
        state.withLock { $0.phase = .stopped }
        kill()
    }

    /// SIGKILL and reap (bounded: a killed process is gone within milliseconds); returns the signal it died of (nil: it
    /// exited, with `status`), and whether it had ended by itself (a zombie not yet reaped: its exit is seen a little after missed deadlines).
    @discardableResult
    private func kill() -> (signal: Int32?, status: Int32, byItself: Bool)? {
        guard let process = state.withLock({ state -> Process? in defer { state.process = nil }; return state.process }) else { return nil }
        let byItself = !process.isRunning || Self.hasExited(process.processIdentifier)
        if !byItself { Glibc.kill(process.processIdentifier, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(2)
        while process.isRunning, ContinuousClock.now < deadline { usleep(1000) }
        guard !process.isRunning else { return nil }
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return (signal, process.terminationStatus, byItself)
    }

    /// Whether process `pid` has ended: it waits to be reaped (state Z in /proc/<pid>/stat), is reaped already
    /// (Foundation's reaper got there before `isRunning` says so), or has a SIGKILL pending that is not ours (sent by
    /// someone else, the OOM killer say, and not yet acted on: on a loaded machine that can take longer than the
    /// missed deadlines that make it look hung).
    private static func hasExited(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return access("/proc/\(pid)", F_OK) != 0 }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first == "Z" || hasKillPending(pid)
    }

    /// Whether SIGKILL is pending for `pid` (its ShdPnd or SigPnd mask in /proc/<pid>/status).
    private static func hasKillPending(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let kill: UInt64 = 1 << (UInt64(SIGKILL) - 1)
        return status.split(separator: "\n").contains { line in
            guard line.hasPrefix("ShdPnd:") || line.hasPrefix("SigPnd:"),
                  let mask = UInt64(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16) else { return false }
            return mask & kill != 0
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGSEGV: "SIGSEGV"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGILL: "SIGILL"
        case SIGKILL: "SIGKILL"
        case SIGXCPU: "SIGXCPU"
        default: "signal \(number)"
        }
    }
}
