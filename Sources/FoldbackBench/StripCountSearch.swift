// The strip-count search of `foldback bench --live`: doubling until a count misses, bisection, then a second look at the answer. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Finds the largest strip count that fits, one measured count at a time, so two searches (one thread
/// and several) can take turns on the same machine: the count doubles from 1 until one misses the budget,
/// then the range between the last fit and that miss is bisected. The count found is then measured once
/// more and must fit again (on a shared machine one quiet trial can let a count through that fails on
/// every later look); if it does not, the search goes on below it.
struct StripCountSearch {
    /// The answer, once the search is over: the largest count that fitted on both looks, with its second trial.
    private(set) var best: BenchLive.Trial?
    /// The count to measure next, or nil when the search is over.
    private(set) var nextCount: Int? = 1
    /// Counts that fitted (increasing), the last one not yet looked at twice.
    private var fitted: [BenchLive.Trial] = []
    private var failed: Int?
    private var isConfirming = false
    private let limit: Int

    /// A search over 1 … `limit` strips.
    init(limit: Int) { self.limit = limit }

    /// Takes the judged trial of ``nextCount`` and moves on.
    mutating func record(_ trial: BenchLive.Trial) {
        if isConfirming {
            isConfirming = false
            if trial.fits {
                best = trial
                nextCount = nil
                return
            }
            fitted.removeLast()
            failed = trial.strips
        } else if trial.fits {
            fitted.append(trial)
            if failed == nil && trial.strips < limit {   // still doubling
                nextCount = min(trial.strips * 2, limit)
                return
            }
        } else {
            failed = min(failed ?? trial.strips, trial.strips)
        }
        let low = fitted.last?.strips ?? 0, high = failed ?? limit + 1
        if high - low > 1 {
            nextCount = (low + high) / 2
        } else if let candidate = fitted.last {
            isConfirming = true
            nextCount = candidate.strips
        } else {
            nextCount = nil
        }
    }
}
