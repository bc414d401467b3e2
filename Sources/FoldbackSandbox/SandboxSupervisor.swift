// The thread that watches every sandbox process (fb-sandbox): faults, restarts, comebacks. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Synchronization

/// Checks every running ``SandboxProcess`` each ``period`` on one ``PeriodicWorker``, off the audio thread.
public final class SandboxSupervisor: Sendable {
    /// How often sandboxes are checked: a crash or hang is acted on within this (plus the hang's missed cycles).
    public static let period: Duration = .milliseconds(10)
    /// The one supervisor of this process.
    public static let shared = SandboxSupervisor()

    private let watched = Mutex<[ObjectIdentifier: SandboxProcess]>([:])
    private let worker: PeriodicWorker

    private init() {
        // With no sandbox to watch the thread sleeps until one is (its 100 wakes a second are not free: about 18 µs of CPU
        // per 256-frame cycle on a loaded 2-core VM).
        worker = PeriodicWorker(name: "fb-sandbox") { SandboxSupervisor.shared.checkAll() ? .after(Self.period) : .whenWoken }
    }

    /// Watches `process` from now on (starting the thread on first use).
    func watch(_ process: SandboxProcess) {
        watched.withLock { $0[ObjectIdentifier(process)] = process }
        worker.start()
        worker.wake()
    }

    /// Stops watching `process` (a check already under way may still see it, stopped).
    func unwatch(_ process: SandboxProcess) {
        _ = watched.withLock { $0.removeValue(forKey: ObjectIdentifier(process)) }
    }

    /// Every sandbox watched now (status lines, OSC, tests).
    public var processes: [SandboxProcess] { watched.withLock { Array($0.values) } }

    /// Checks every watched sandbox; whether there was any.
    private func checkAll() -> Bool {
        let all = processes
        for process in all { process.check() }
        return !all.isEmpty
    }
}
