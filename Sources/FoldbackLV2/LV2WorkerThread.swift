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
    /// plugin sandbox runs this thread too, and at 1 ms it cost a sandbox more CPU than serving its plugin.
    static let quietPollInterval = Duration.milliseconds(10)
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
            return isEmpty ? .whenWoken : .after(registry.workers.isEmpty ? Self.quietPollInterval : Self.pollInterval)
        }
    }
}
