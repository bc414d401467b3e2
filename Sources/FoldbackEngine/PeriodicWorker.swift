// The one type for Foldback's long-lived background threads: named, run periodically or when woken, stopped and joined. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A named background thread that runs a body, then waits until its next run is due or it is woken.
///
/// Every long-lived non-realtime thread of Foldback is one of these (disk, recorder, loudness, feedback
/// analysis, meter and web pushes, MIDI, LV2 work, the control poller). The body says after each run when
/// it wants the next (``Next``). Where another non-realtime thread produces the work (a subscription, a
/// control command), that thread calls ``wake()`` and the body runs at once instead of on a poll. The audio
/// thread never calls ``wake()`` (it would be a system call): work it produces is collected on a period.
///
/// The thread carries ``name`` (at most 15 bytes, as `top -H` and `/proc/<pid>/task/*/comm` show it).
/// ``stop()`` lets a running body finish, ends the thread and joins it: when it returns the body never runs
/// again and the thread is gone. The worker keeps itself alive while its thread runs.
public final class PeriodicWorker: @unchecked Sendable {
    /// When the body wants to run next.
    public enum Next: Sendable, Equatable {
        /// After this long, or sooner when woken (`.zero`: at once).
        case after(Duration)
        /// Only when woken.
        case whenWoken
    }

    /// The thread's name (truncated to 15 bytes of UTF-8).
    public let name: String
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `lock`:
    private var body: (@Sendable () -> Next)?
    private var thread: pthread_t?
    private var isWoken = false
    private var isStopping = false
    private var isJoined = false

    /// A worker named `name` running `body` once started; `body` returns when it wants its next run.
    public init(name: String, body: @escaping @Sendable () -> Next) {
        self.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        self.body = body
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// A worker named `name` running `body` every `period` (measured from the end of one run to the start of
    /// the next), and at once when woken.
    public convenience init(name: String, period: Duration, body: @escaping @Sendable () -> Void) {
        self.init(name: name) {
            body()
            return .after(period)
        }
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Starts the thread; its first run begins at once. Does nothing if it was started or stopped before.
    public func start() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard thread == nil, !isStopping else { return }
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&created, nil, { context in
            Unmanaged<PeriodicWorker>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if result == 0 {
            thread = created
        } else {
            Unmanaged<PeriodicWorker>.fromOpaque(context).release()
        }
    }

    /// Whether the thread was started and not stopped.
    public var isRunning: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return thread != nil && !isStopping
    }

    /// Runs the body as soon as possible: at once when the thread waits, right after the current run when one
    /// is under way. Never call it from the audio thread.
    public func wake() {
        pthread_mutex_lock(lock)
        isWoken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(lock)
    }

    /// Lets a running body finish, ends the thread and waits for it; the body is released. Safe to call twice,
    /// and from the body itself (which then ends the thread without waiting for itself).
    public func stop() {
        pthread_mutex_lock(lock)
        isStopping = true
        pthread_cond_signal(condition)
        let running = thread
        let shouldJoin = running != nil && !isJoined
        isJoined = true
        pthread_mutex_unlock(lock)
        guard shouldJoin, let running else { return releaseBody() }
        if pthread_equal(running, pthread_self()) != 0 {
            pthread_detach(running)
        } else {
            pthread_join(running, nil)
        }
        releaseBody()
    }

    private func releaseBody() {
        pthread_mutex_lock(lock)
        let released = body   // released outside the lock: it may hold the last reference to its owner
        body = nil
        pthread_mutex_unlock(lock)
        _ = released
    }

    private func run() {
        nameThisThread()
        pthread_mutex_lock(lock)
        while !isStopping, let body {
            isWoken = false   // a wake before this run is served by it
            pthread_mutex_unlock(lock)
            let next = body()
            pthread_mutex_lock(lock)
            wait(for: next)
        }
        pthread_mutex_unlock(lock)
    }

    /// Names the calling thread ``name``, as `pthread_setname_np` would (which Glibc's Swift overlay lacks).
    private func nameThisThread() {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = name.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
    }

    /// With the lock held: waits until `next` is due, the worker is woken or it stops.
    private func wait(for next: Next) {
        switch next {
        case .whenWoken:
            while !isWoken && !isStopping { pthread_cond_wait(condition, lock) }
        case .after(let delay):
            guard delay > .zero else { return }
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
            deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while !isWoken && !isStopping {
                if pthread_cond_timedwait(condition, lock, &deadline) == ETIMEDOUT { return }
            }
        }
    }
}
