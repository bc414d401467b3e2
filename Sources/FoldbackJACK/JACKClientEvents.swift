// Xrun counting and server-shutdown capture for one client. Realtime: the JACK callbacks (preallocated memory only); readers are non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server went away (or threw the client out) while the client was running.
public struct JACKShutdown: Sendable, Equatable, CustomStringConvertible {
    /// The server's reason, as it worded it.
    public let reason: String
    /// The jack_status_t bits it reported.
    public let status: UInt32
    /// A message saying what happened.
    public var description: String {
        "The JACK server shut down or disconnected this client" + (reason.isEmpty ? "." : ": \(reason)")
    }
}

/// Xruns and shutdown notices recorded by JACK's callbacks into preallocated memory, for the owner to poll.
/// Install before activation; keep it alive until the client is closed.
package final class JACKClientEvents: @unchecked Sendable {
    private struct State {
        var xruns: UnsafeAtomic<Int>
        var shutdownStatus: UnsafeAtomic<UInt32>
        var isShutDown: UnsafeAtomic<Bool>
        /// CLOCK_MONOTONIC nanoseconds of the first shutdown notice (0: none yet).
        var shutdownAt: UnsafeAtomic<UInt64>
        var reason: UnsafeMutablePointer<CChar>
    }

    private static let reasonCapacity = 512
    private let state: UnsafeMutablePointer<State>

    package init() {
        let reason = UnsafeMutablePointer<CChar>.allocate(capacity: Self.reasonCapacity)
        reason.initialize(repeating: 0, count: Self.reasonCapacity)
        state = .allocate(capacity: 1)
        state.initialize(to: State(
            xruns: .create(0), shutdownStatus: .create(0), isShutDown: .create(false), shutdownAt: .create(0), reason: reason))
    }

    deinit {
        state.pointee.xruns.destroy()
        state.pointee.shutdownStatus.destroy()
        state.pointee.isShutDown.destroy()
        state.pointee.shutdownAt.destroy()
        state.pointee.reason.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Registers the xrun and both shutdown callbacks on `client` (which must not be active yet).
    ///
    /// jackd's libjack calls the info-shutdown callback (with a reason) and then never the plain one;
    /// PipeWire's libjack (0.3.x) calls only the plain one when the daemon goes away, so without it a
    /// PipeWire restart would orphan the client silently.
    func install(on client: JACKClient) throws(JACKError) {
        let arg = UnsafeMutableRawPointer(state)
        guard jack_set_xrun_callback(client.handle, Self.onXrun, arg) == 0 else {
            throw .callbackRegistrationFailed(callback: "xrun")
        }
        jack_on_shutdown(client.handle, Self.onPlainShutdown, arg)
        jack_on_info_shutdown(client.handle, Self.onShutdown, arg)
    }

    /// Xruns the server has reported since installation.
    package var xrunCount: Int { state.pointee.xruns.load(ordering: .relaxed) }

    /// The shutdown notice, once the server has sent one.
    package var shutdown: JACKShutdown? {
        guard state.pointee.isShutDown.load(ordering: .acquiring) else { return nil }
        return JACKShutdown(
            reason: String(cString: state.pointee.reason),
            status: state.pointee.shutdownStatus.load(ordering: .relaxed))
    }

    /// Seconds since the first shutdown notice; nil without one.
    package var secondsSinceShutdown: Double? {
        let at = state.pointee.shutdownAt.load(ordering: .acquiring)
        guard at > 0 else { return nil }
        let now = Self.monotonicNanoseconds()
        return now > at ? Double(now - at) / 1e9 : 0
    }

    /// Forgets a shutdown notice, before installing on a new client (the old one closed: no callback can run).
    func rearm() {
        state.pointee.isShutDown.store(false, ordering: .releasing)
        state.pointee.shutdownAt.store(0, ordering: .relaxed)
        state.pointee.shutdownStatus.store(0, ordering: .relaxed)
        state.pointee.reason.pointee = 0
    }

    private static let onXrun: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { arg in
        arg?.assumingMemoryBound(to: State.self).pointee.xruns.wrappingIncrement(ordering: .relaxed)
        return 0
    }

    /// May run on any thread, even the process thread: copies into preallocated memory only.
    private static let onShutdown: @convention(c) (jack_status_t, UnsafePointer<CChar>?, UnsafeMutableRawPointer?)
        -> Void = { status, reason, arg in
            guard let state = arg?.assumingMemoryBound(to: State.self) else { return }
            if !state.pointee.isShutDown.load(ordering: .relaxed), let reason {
                strncpy(state.pointee.reason, reason, JACKClientEvents.reasonCapacity - 1)
            }
            state.pointee.shutdownStatus.store(status.rawValue, ordering: .relaxed)
            JACKClientEvents.markShutdownTime(state)
            state.pointee.isShutDown.store(true, ordering: .releasing)
        }

    /// The reasonless shutdown PipeWire's libjack reports (its core connection failed): recorded with
    /// `JackServerError` as the status, keeping any reason an info-shutdown callback already copied.
    private static let onPlainShutdown: @convention(c) (UnsafeMutableRawPointer?) -> Void = { arg in
        guard let state = arg?.assumingMemoryBound(to: State.self) else { return }
        if !state.pointee.isShutDown.load(ordering: .relaxed) {
            state.pointee.shutdownStatus.store(0x20 /* JackServerError */, ordering: .relaxed)
        }
        markShutdownTime(state)
        state.pointee.isShutDown.store(true, ordering: .releasing)
    }

    /// Records when the first shutdown notice came (libjack's thread that sent it is still unwinding then).
    private static func markShutdownTime(_ state: UnsafeMutablePointer<State>) {
        _ = state.pointee.shutdownAt.compareExchange(expected: 0, desired: monotonicNanoseconds(), ordering: .acquiringAndReleasing)
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
