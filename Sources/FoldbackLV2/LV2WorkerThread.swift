// The one background thread that runs every live plugin's scheduled work and NaN-guard restarts, polling the request rings and flags. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Synchronization

/// Runs live plugins' worker requests, and the restarts the NaN guard asks for (LV2UnitRestart.swift), off the audio thread.
///
/// The audio thread never wakes this thread (a semaphore post is a syscall): it only pushes into a
/// lock-free ring, and this thread polls every registered worker each millisecond, so work starts at
/// most about 1 ms after it is scheduled; with nothing registered it sleeps until a registration wakes it.
/// The lock here guards the registry, never the audio thread.
final class LV2WorkerThread: @unchecked Sendable {
    static let shared: LV2WorkerThread = LV2WorkerThread()
    /// How long the thread sleeps when no worker had anything to do.
    static let pollInterval = Duration.milliseconds(1)
    /// How often it looks when no plugin has a worker (only plugins' log lines and restart requests to serve): each
    /// plugin sandbox runs this thread too, and at 1 ms it cost a sandbox more CPU than serving its plugin. A plugin
    /// sandbox sets a longer one (``LV2WorkerThreadPolicy``) and wakes the thread itself when a restart is due.
    static let quietPollInterval = Duration.milliseconds(10)
    /// The quiet poll this process uses, in nanoseconds (``quietPollInterval`` unless ``LV2WorkerThreadPolicy`` set one).
    private let quietNanoseconds = Atomic<Int64>(Int64(quietPollInterval.components.attoseconds / 1_000_000_000))
    /// The registered workers' states (raw pointers, owned by their ``LV2Worker``s).
    private struct Registry: @unchecked Sendable {
        var workers: [UnsafeMutablePointer<LV2WorkerState>] = []
        var logs: [ObjectIdentifier: LV2Log] = [:]
        var restartableUnits: [UnsafeMutablePointer<LV2UnitRender>] = []
    }
    private let registry = Mutex(Registry())
    private let worker: PeriodicWorker

    private init() {
        worker = PeriodicWorker(name: "fb-lv2-worker") { LV2WorkerThread.shared.serve() }
    }

    /// Serves `worker` from now on (starting the thread on first use).
    func register(_ worker: UnsafeMutablePointer<LV2WorkerState>) {
        registry.withLock { $0.workers.append(worker) }
        startIfNeeded()
    }

    /// Drains `log` from now on (starting the thread on first use).
    func register(log: LV2Log) {
        registry.withLock { $0.logs[ObjectIdentifier(log)] = log }
        startIfNeeded()
    }

    /// Stops draining `log`.
    func unregister(log: LV2Log) {
        _ = registry.withLock { $0.logs.removeValue(forKey: ObjectIdentifier(log)) }
    }

    /// Performs `unit`'s restart requests from now on (starting the thread on first use).
    func register(restartsOf unit: UnsafeMutablePointer<LV2UnitRender>) {
        registry.withLock { $0.restartableUnits.append(unit) }
        startIfNeeded()
    }

    /// Stops serving `unit`'s restart requests; when this returns the thread no longer touches it.
    func unregister(restartsOf unit: UnsafeMutablePointer<LV2UnitRender>) {
        registry.withLock { $0.restartableUnits.removeAll { $0 == unit } }
    }

    /// Sets the quiet poll (see ``quietNanoseconds``).
    func pollWhenQuiet(every interval: Duration) {
        let (seconds, attoseconds) = interval.components
        quietNanoseconds.store(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .relaxed)
    }

    /// Runs a pass at once (never from the audio thread: see ``LV2WorkerThreadPolicy/wake()``).
    func wake() {
        worker.wake()
    }

    private func startIfNeeded() {
        worker.start()   // the first time only
        worker.wake()
    }

    /// Stops serving `worker`; when this returns the thread no longer touches it.
    func unregister(_ worker: UnsafeMutablePointer<LV2WorkerState>) {
        registry.withLock { $0.workers.removeAll { $0 == worker } }
    }

    /// One pass over everything registered: again at once after work, after ``pollInterval`` when idle
    /// (``quietPollInterval`` when no plugin has a worker), only when woken with nothing registered.
    private func serve() -> PeriodicWorker.Next {
        registry.withLock { registry in
            var any = false
            for worker in registry.workers where worker.pointee.performRequests(worker) { any = true }
            for log in registry.logs.values where log.drain() { any = true }
            for unit in registry.restartableUnits where LV2UnitRender.performRequestedRestart(unit) { any = true }
            if any { return .after(.zero) }
            let isEmpty = registry.workers.isEmpty && registry.logs.isEmpty && registry.restartableUnits.isEmpty
            let quiet = Duration.nanoseconds(quietNanoseconds.load(ordering: .relaxed))
            return isEmpty ? .whenWoken : .after(registry.workers.isEmpty ? quiet : Self.pollInterval)
        }
    }
}

/// The LV2 worker thread's pace, for a process whose own loop knows when a plugin restart is due: the plugin sandbox,
/// whose serving thread sees the reset requests Foldback sends (`foldback-sandbox`). Foldback's own process keeps the
/// defaults.
public enum LV2WorkerThreadPolicy {
    /// With no plugin worker to serve, the thread looks for log lines and restart requests this often (10 ms by default;
    /// 1 ms stays the pace while a plugin has a worker).
    public static func pollWhenQuiet(every interval: Duration) {
        LV2WorkerThread.shared.pollWhenQuiet(every: interval)
    }

    /// Runs the thread's pass at once (a restart the caller just requested). Takes a lock: never on a realtime path.
    public static func wake() {
        LV2WorkerThread.shared.wake()
    }
}
