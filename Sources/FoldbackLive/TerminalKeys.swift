// Single key presses from the terminal for the meter view (non-canonical, no echo), on a thread of their own. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads key presses from standard input while the meter view shows, one byte at a time, without waiting
/// for Enter and without echoing them; puts the terminal back as it was on ``stop()``. Does nothing when
/// standard input is not a terminal.
package final class TerminalKeys: @unchecked Sendable {
    private var saved = termios()
    private var isRaw = false
    private var worker: PeriodicWorker?

    /// Starts reading; `onKey` gets each byte on the reading thread.
    package init?(onKey: @escaping @Sendable (UInt8) -> Void) {
        guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutablePointer(to: &raw.c_cc) { cc in
            cc.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { chars in
                chars[Int(VMIN)] = 0
                chars[Int(VTIME)] = 0
            }
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        isRaw = true
        // Each run waits up to 0.1 s for a key (so a stop is seen within that), then runs again at once.
        let worker = PeriodicWorker(name: "fb-keys") {
            var byte: UInt8 = 0
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { return .after(.zero) }
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 {
                onKey(byte)
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                return .whenWoken   // the terminal hung up (a closed ssh session): the show goes on without keys, no busy loop
            }
            return .after(.zero)
        }
        self.worker = worker
        worker.start()
    }

    deinit { stop() }

    /// Stops reading and restores the terminal. Safe to call twice.
    package func stop() {
        guard let worker, worker.isRunning else { return }
        worker.stop()
        if isRaw { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}
