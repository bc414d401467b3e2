// Writes the redrawn terminal view and status line from a thread of its own, newest frame wins. Non-realtime.
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
    private let lock = NSLock()
    private var pending: [UInt8]?
    private var written = 0
    private var handedOver = 0
    private var blockedSince: Date?
    private let wake = DispatchSemaphore(value: 0)
    private let progress = NSCondition()

    /// A writer for `descriptor`; its thread starts with the first frame.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    private lazy var thread: Thread = {
        let thread = Thread { [self] in run() }
        thread.name = "foldback-screen"
        return thread
    }()

    /// Hands `text` over to be written; a frame not yet written is dropped in its favour. Never blocks on the terminal.
    package func show(_ text: String) {
        fflush(nil)   // what went through stdio before comes out first
        let startThread = lock.withLock {
            pending = Array(text.utf8)
            handedOver += 1
            return handedOver == 1
        }
        if startThread { thread.start() }
        wake.signal()
    }

    /// Hands `text` over and waits up to `timeout` seconds for it to reach the terminal; false if the
    /// terminal did not take it in time (the caller goes on: a stuck terminal never keeps Foldback from exiting).
    @discardableResult
    package func showAndWait(_ text: String, timeout: Double) -> Bool {
        show(text)
        let (target, stalled) = lock.withLock { (handedOver, blockedSince.map { Date().timeIntervalSince($0) > 0.25 } ?? false) }
        if stalled { return false }   // a terminal that has taken nothing for a while will not take this either
        let deadline = Date().addingTimeInterval(timeout)
        progress.lock()
        defer { progress.unlock() }
        while lock.withLock({ written < target }) {
            guard progress.wait(until: deadline) else { return lock.withLock { written >= target } }
        }
        return true
    }

    private func run() {
        while true {
            wake.wait()
            let taken = lock.withLock {
                defer { pending = nil }
                return pending.map { ($0, handedOver) }
            }
            guard let (bytes, number) = taken else { continue }
            lock.withLock { blockedSince = Date() }
            writeAll(bytes)
            lock.withLock { blockedSince = nil }
            progress.lock()
            lock.withLock { written = max(written, number) }
            progress.broadcast()
            progress.unlock()
        }
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
