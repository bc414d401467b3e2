// Reads the LD_PRELOAD allocation counter (libFoldbackAllocCounter.so) through dlsym. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The audio-path malloc/free counters of the preloaded counter library, if it is loaded.
struct AllocationCounter {
    private typealias Counter = @convention(c) () -> Int64
    private typealias Action = @convention(c) () -> Void
    private let allocations: Counter
    private let frees: Counter
    private let firstSize: Counter
    private let reset: Action
    private let enter: Action
    private let leave: Action

    /// nil when the counter library is not preloaded.
    init?() {
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }   // RTLD_DEFAULT
            return unsafeBitCast(address, to: type)
        }
        guard let allocations = symbol("fb_alloc_counter_audio_allocations", as: Counter.self),
              let frees = symbol("fb_alloc_counter_audio_frees", as: Counter.self),
              let firstSize = symbol("fb_alloc_counter_first_size", as: Counter.self),
              let reset = symbol("fb_alloc_counter_reset", as: Action.self),
              let enter = symbol("fb_alloc_counter_enter_audio", as: Action.self),
              let leave = symbol("fb_alloc_counter_leave_audio", as: Action.self)
        else { return nil }
        (self.allocations, self.frees, self.firstSize, self.reset, self.enter, self.leave) = (allocations, frees, firstSize, reset, enter, leave)
    }

    /// Counts so far: allocations, frees and the size of the first allocation (−1 if none).
    var counts: (allocations: Int64, frees: Int64, firstSize: Int64) { (allocations(), frees(), firstSize()) }

    /// Proves the counter sees audio-path calls: one malloc and one free inside, none outside. Leaves counts at zero.
    func selfTest() -> Bool {
        reset()
        keep(malloc(64))
        enter()
        keep(malloc(48))
        leave()
        let result = counts
        reset()
        return result.allocations == 1 && result.frees == 1 && result.firstSize == 48
    }

    func resetCounts() { reset() }

    /// Frees `pointer` after publishing it, so the optimiser cannot elide the malloc/free pair.
    @inline(never)
    private func keep(_ pointer: UnsafeMutableRawPointer?) {
        allocationSink = pointer
        free(allocationSink)
    }
}

nonisolated(unsafe) private var allocationSink: UnsafeMutableRawPointer?
