// The scheduling of a file source's disk thread: first-in-first-out at the lowest realtime priority when allowed. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A stretching disk thread keeps only 32 ms of audio ahead of the audio thread (so a tempo change is heard within
/// 100 ms) and spends ~12 % of a core on R3: as an ordinary thread, three busy processes on a 2-core machine kept it
/// waiting past that, and the strip ran dry. At `SCHED_FIFO` priority 1 it comes before every ordinary thread and
/// after JACK's audio threads (priority 10 and up), which it never delays; the kernel's realtime throttling still
/// leaves ordinary threads 5 % of each second.
enum DiskThreadPriority {
    /// Moves the calling thread to `SCHED_FIFO` priority 1; false (and unchanged) where the system does not allow it
    /// (no `rtprio` limit for the user: the thread then runs as before).
    @discardableResult
    static func raiseCallingThread() -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = 1
        return pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameters) == 0
    }
}
