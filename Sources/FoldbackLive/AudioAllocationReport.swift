// The audio path's malloc/free count at exit, when the LD_PRELOAD allocation counter is loaded. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback

/// Reports what libFoldbackAllocCounter.so counted inside the JACK process callback, so a test (or a
/// developer) can run the real `foldback run` under `LD_PRELOAD=…/libFoldbackAllocCounter.so` and check
/// that the audio thread never allocated or freed, through restarts and period changes included.
package enum AudioAllocationReport {
    /// The line `foldback: audio path: N allocations, M frees`, or nil when the counter is not loaded.
    package static var line: String? {
        var allocations: Int64 = 0, frees: Int64 = 0
        guard fb_audio_allocation_counts(&allocations, &frees) != 0 else { return nil }
        return "foldback: audio path: \(allocations) allocations, \(frees) frees (allocation counter)"
    }
}
