// Speaks systemd's notify protocol for a show under a Type=notify unit: READY, STATUS, a watchdog fed only while audio cycles complete, STOPPING. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemd
import FoldbackEngine
import Glibc

/// Tells the service manager that started Foldback (systemd, with `NOTIFY_SOCKET` set) how the show is doing,
/// through libsystemd's `sd_notify`. Without `NOTIFY_SOCKET` every call does nothing.
///
/// `READY=1` is sent once the JACK client is active and its ports are connected. With `WatchdogSec=` in the unit
/// (`WATCHDOG_USEC` set), a worker thread sends `WATCHDOG=1` every third of the interval, but only when the audio
/// thread's cycle counter has moved since its last look: a stuck process thread, or a server that stops running
/// cycles, starves the watchdog and systemd restarts the show. The audio thread itself is never asked anything: the
/// worker reads the counter it already keeps (one relaxed atomic).
package final class ServiceNotifier: @unchecked Sendable {
    private var worker: PeriodicWorker?

    /// Whether a service manager listens (`NOTIFY_SOCKET` is set).
    package static var isSupervised: Bool { getenv("NOTIFY_SOCKET") != nil }

    package init() {}

    deinit { worker?.stop() }

    /// Sends `READY=1` with `status` as the `STATUS=` line systemctl shows.
    package func ready(status: String) {
        Self.notify("READY=1\nSTATUS=\(Self.oneLine(status))")
    }

    /// Sends a `STATUS=` line.
    package func status(_ text: String) {
        Self.notify("STATUS=\(Self.oneLine(text))")
    }

    /// Starts feeding the watchdog the unit asks for (none without `WATCHDOG_USEC`): `WATCHDOG=1` every third of
    /// its interval while `cycles()` (the audio thread's completed-cycle count) has advanced since the last look.
    package func startWatchdog(cycles: @escaping @Sendable () -> Int) {
        guard worker == nil, let interval = Self.watchdogInterval() else { return }
        let period = Duration.microseconds(Int64(max(interval / 3, 10_000)))
        let last = LastCount()
        let worker = PeriodicWorker(name: "fb-watchdog", period: period) {
            let count = cycles()
            guard count != last.value else { return }
            last.value = count
            Self.notify("WATCHDOG=1")
        }
        self.worker = worker
        worker.start()
    }

    /// Stops feeding the watchdog and sends `STOPPING=1` (systemd then waits for the exit, not the watchdog).
    package func stopping() {
        worker?.stop()
        worker = nil
        Self.notify("STOPPING=1")
    }

    /// The watchdog interval in microseconds when the manager asked for one for this process, else nil.
    static func watchdogInterval() -> UInt64? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return microseconds
    }

    private static func notify(_ message: String) {
        guard isSupervised else { return }
        _ = sd_notify(0, message)
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// The cycle count the watchdog worker saw last (its thread only).
private final class LastCount: @unchecked Sendable {
    var value = -1
}
