// What a show does when the JACK host's watchdog finds a process cycle that does not end: says which unit, and exits for a supervisor to restart it. Non-realtime (the watchdog's thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
#if canImport(Glibc)
import Glibc
#endif

/// The show's answer to a stuck process cycle (a plugin hung in Foldback's own process, `isolation = "none"`).
///
/// The watchdog has already zeroed the outputs JACK replays. The stuck thread cannot be freed and JACK cannot
/// close the client while it is stuck (jack_client_close waits for it), and every client downstream of Foldback
/// stops running until the server drops it. So the show ends at once, with ``status``, after one line naming the
/// unit: the server then drops the client (measured on jackd 1.9 dummy: its ports go silent and downstream
/// clients run again about 65 ms later) and a supervisor (systemd `Restart=on-failure`) starts the show again.
enum StuckCycleExit {
    /// `foldback run`'s exit status after a stuck cycle (EX_SOFTWARE): no other way of ending gives it.
    static let status: Int32 = 70

    /// The handler ``JACKHost/startWatchdog(onStuck:)`` calls: logs, then `_exit` (no atexit handler may wait on the stuck thread).
    static func handler(engine: Engine) -> @Sendable (StuckCycle) -> Void {
        { stuck in
            StandardError.writeLine("\n" + message(stuck, names: stuck.units.compactMap { engine.graph?.unitName(atRenderIndex: $0) }))
            _exit(status)
        }
    }

    /// The log line for `stuck`, whose lanes were inside the units `names`.
    static func message(_ stuck: StuckCycle, names: [String]) -> String {
        let place = names.isEmpty ? "outside any unit" : "in " + names.joined(separator: " or ")
        return "foldback: fault: the audio cycle has not returned for \(Int(stuck.milliseconds.rounded())) ms, stuck \(place); "
            + "outputs muted (\(stuck.mutedPorts) port(s)); exiting with status \(status) so JACK drops the client "
            + "and a supervisor (systemd Restart=on-failure) starts the show again"
    }
}
