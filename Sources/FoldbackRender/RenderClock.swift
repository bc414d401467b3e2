// Thread CPU time and wall time since a start, for render and benchmark reports. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// Measures the calling thread's CPU time and the wall time since it was created.
public struct RenderClock: Sendable {
    private let cpuStart: UInt64
    private let wallStart: UInt64

    /// Starts measuring now.
    public init() {
        cpuStart = Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID)
        wallStart = Self.nanoseconds(CLOCK_MONOTONIC)
    }

    /// CPU seconds the calling thread used since ``init()`` (call from the same thread).
    public var cpuSeconds: Double { Double(Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID) - cpuStart) / 1e9 }
    /// Wall seconds since ``init()``.
    public var wallSeconds: Double { Double(Self.nanoseconds(CLOCK_MONOTONIC) - wallStart) / 1e9 }

    /// The calling thread's CPU time, nanoseconds.
    public static func threadCPUNanoseconds() -> UInt64 { nanoseconds(CLOCK_THREAD_CPUTIME_ID) }

    private static func nanoseconds(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
