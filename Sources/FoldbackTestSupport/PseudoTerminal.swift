// A pseudo-terminal for end-to-end tests of terminal views: the side a child process uses, and the side the test reads and types on. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

/// A pseudo-terminal pair from `/dev/ptmx`. Give `terminal` to a child as its standard input and output;
/// `startReading()` drains what it writes into `screen` on a thread of its own (an undrained terminal stops
/// the child's writes once its buffer is full, which is itself a case worth testing); `type(_:)` presses keys.
public final class PseudoTerminal: @unchecked Sendable {
    /// The child's side (`/dev/pts/N`).
    public let terminal: FileHandle
    private let master: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var isClosed = false
    private var isReading = false
    private let readerEnded = DispatchSemaphore(value: 0)

    /// Opens a new pair (posix_openpt and friends are not exported to Swift, so through /dev/ptmx and its ioctls).
    public init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure("cannot open /dev/ptmx: errno \(errno)") }
        var unlock: Int32 = 0, number: UInt32 = 0
        guard ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0, ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0,
              let terminal = FileHandle(forUpdatingAtPath: "/dev/pts/\(number)") else {
            Glibc.close(master)
            throw Failure("cannot unlock or open the pseudo-terminal: errno \(errno)")
        }
        self.terminal = terminal
    }

    deinit { close() }

    /// Starts draining the child's output into `screen`.
    public func startReading() {
        let thread = Thread { [self] in
            defer { readerEnded.signal() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !lock.withLock({ isClosed }) {
                var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = read(master, &buffer, buffer.count)
                guard count > 0 else { return }
                lock.withLock { bytes += buffer[0..<count] }
            }
        }
        isReading = true
        thread.start()
    }

    /// Everything read from the child so far, as text.
    public var screen: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Types `text` as if on the keyboard.
    public func type(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Closes the test's copy of the child's side, so the terminal hangs up when the child exits.
    public func closeChildSide() { try? terminal.close() }

    /// Closes the pair's test side; the reader stops.
    public func close() {
        let wasClosed = lock.withLock {
            defer { isClosed = true }
            return isClosed
        }
        guard !wasClosed else { return }
        if isReading { readerEnded.wait() }   // the reader sees isClosed within one 50 ms poll
        Glibc.close(master)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
