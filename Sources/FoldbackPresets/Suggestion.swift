// "Did you mean …?": the closest valid spelling by edit distance. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Finds the candidate a mistyped word was probably meant to be.
enum Suggestion {
    /// The closest candidate, if it is close enough to be a likely typo (case-insensitive,
    /// transpositions count once, and a missing unit suffix such as `gain` for `gain_db` counts as close).
    static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(typed, target)
            let limit = max(1, min(3, max(typed.count, target.count) / 3))
            let isSuffixMissing = !typed.isEmpty && candidate.lowercased().hasPrefix(word.lowercased() + "_")
            guard distance <= limit || isSuffixMissing else { continue }
            let score = isSuffixMissing ? min(distance, 1) : distance
            if let best, best.distance <= score { continue }
            best = (candidate, score)
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` when something is close, else `; <fallbackLabel>: a, b, c`.
    static func hint(for word: String, in candidates: [String], fallbackLabel: String) -> String {
        if let match = closest(to: word, in: candidates) { return "; did you mean '\(match)'?" }
        guard !candidates.isEmpty else { return "" }
        return "; \(fallbackLabel): " + candidates.joined(separator: ", ")
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
