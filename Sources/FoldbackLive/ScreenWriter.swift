// Writes the redrawn terminal view and status line from a thread of its own, newest frame wins. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation

/// Standard output for frames that are redrawn over and over (the `--meters` view, the status line).
///
/// A terminal can stop reading: Ctrl-S, a stalled ssh link, a pseudo-terminal nobody drains, a pager that
/// waits. A blocking `write` there must never hold up what the control threads do between frames (Ctrl-C,
/// SIGHUP reloads, connection upkeep, freeing retired graphs), so callers only hand a frame over; one writer
/// thread writes the newest frame whole and frames that arrive while it is blocked replace each other.
package final class ScreenWriter: @unchecked Sendable {
    /// The writer for standard output, shared by everything that redraws it.
    package static let standardOutput = ScreenWriter(descriptor: STDOUT_FILENO)

    private let descriptor: Int32
    /// Guards the fields below; `showAndWait` waits on it for progress.
    private let state = NSCondition()
    private var pending: [UInt8]?
    private var handedOver = 0
    private var written = 0
    private var blockedSince: Date?
    private var worker: PeriodicWorker?

    /// A writer for `descriptor`; its thread starts with the first frame.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Hands `text` over to be written; a frame not yet written is dropped in its favour. Never blocks on the terminal.
    package func show(_ text: String) {
        fflush(nil)   // what went through stdio before comes out first
        state.lock()
        pending = Array(text.utf8)
        handedOver += 1
        if worker == nil {
            let worker = PeriodicWorker(name: "fb-screen") { [self] in writePending() }
            self.worker = worker
            worker.start()
        }
        let worker = worker
        state.unlock()
        worker?.wake()
    }

    /// Hands `text` over and waits up to `timeout` seconds for it to reach the terminal; false if the
    /// terminal did not take it in time (the caller goes on: a stuck terminal never keeps Foldback from exiting).
    @discardableResult
    package func showAndWait(_ text: String, timeout: Double) -> Bool {
        show(text)
        let deadline = Date().addingTimeInterval(timeout)
        state.lock()
        defer { state.unlock() }
        let target = handedOver
        // A terminal that has taken nothing for a while will not take this either.
        if let blockedSince, Date().timeIntervalSince(blockedSince) > 0.25 { return false }
        while written < target {
            guard state.wait(until: deadline) else { return written >= target }
        }
        return true
    }

    /// The writer thread: writes the newest frame, then sleeps until ``show(_:)`` hands another over.
    private func writePending() -> PeriodicWorker.Next {
        state.lock()
        guard let bytes = pending else {
            state.unlock()
            return .whenWoken
        }
        let number = handedOver
        pending = nil
        blockedSince = Date()
        state.unlock()
        writeAll(bytes)
        state.lock()
        blockedSince = nil
        written = number
        state.broadcast()
        state.unlock()
        return .after(.zero)   // a frame that came during the write goes next
    }

    /// Writes every byte, riding out interrupted and partial writes; gives up on any other error (a closed terminal).
    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, base + offset, buffer.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
