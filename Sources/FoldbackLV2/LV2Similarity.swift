// Ranks installed plugin URIs by likeness to a mistyped one, for "closest matches" hints. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Letter-triple (trigram) similarity between a typed URI and installed URIs and names.
enum LV2Similarity {
    /// The `limit` candidates most like `text`, best first; candidates sharing nothing are left out.
    static func closest(to text: String, among candidates: [(uri: String, name: String)], limit: Int) -> [String] {
        let typed = trigrams(text)
        let tail = trigrams(lastComponent(text))
        let scored = candidates.map { candidate -> (String, Double) in
            let whole = dice(typed, trigrams(candidate.uri))
            let part = max(dice(tail, trigrams(lastComponent(candidate.uri))), dice(tail, trigrams(candidate.name)))
            return (candidate.uri, max(whole, part))
        }
        return scored.filter { $0.1 > 0.2 }.sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(limit).map(\.0)
    }

    /// The part after the last `/` or `#` (`fil4#stereo` → `stereo`, so both parts are tried).
    private static func lastComponent(_ uri: String) -> String {
        let parts = uri.split(whereSeparator: { $0 == "/" })
        return parts.last.map(String.init) ?? uri
    }

    private static func trigrams(_ text: String) -> Set<String> {
        let letters = Array("  " + text.lowercased() + " ")
        guard letters.count >= 3 else { return [] }
        return Set((0...(letters.count - 3)).map { String(letters[$0..<($0 + 3)]) })
    }

    /// Dice coefficient: twice the shared triples over the total.
    private static func dice(_ a: Set<String>, _ b: Set<String>) -> Double {
        guard !a.isEmpty || !b.isEmpty else { return 0 }
        return 2 * Double(a.intersection(b).count) / Double(a.count + b.count)
    }
}
