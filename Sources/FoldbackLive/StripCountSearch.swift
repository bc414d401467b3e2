// The strip-count search of `foldback bench --live`: doubling until a count misses, then bisection. Non-realtime.

/// Finds the largest strip count that fits, one measured count at a time, so two searches (one thread
/// and several) can take turns on the same machine: the count doubles from 1 until one misses the budget,
/// then the range between the last fit and that miss is bisected.
struct StripCountSearch {
    /// The largest count that fitted so far, with its trial.
    private(set) var best: BenchLive.Trial?
    private var next: Int? = 1
    private var failed: Int?
    private let limit: Int

    /// A search over 1 … `limit` strips.
    init(limit: Int) { self.limit = limit }

    /// The count to measure next, or nil when the search is over.
    var nextCount: Int? { next }

    /// Takes the judged trial of ``nextCount`` and moves on.
    mutating func record(_ trial: BenchLive.Trial) {
        if trial.fits { best = trial } else if failed == nil { failed = trial.strips }
        guard let failed else {   // still doubling
            next = trial.strips >= limit ? nil : min(trial.strips * 2, limit)
            return
        }
        let low = trial.fits ? trial.strips : (best?.strips ?? 0)
        let high = trial.fits ? failed : min(failed, trial.strips)
        self.failed = high
        next = high - low > 1 ? (low + high) / 2 : nil
    }
}
