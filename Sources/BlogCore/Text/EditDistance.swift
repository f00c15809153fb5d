/// How far apart two words are, to suggest the word meant for a mistyped one ("did you mean `build`?").
package enum EditDistance {
    /// The number of one-character insertions, deletions, substitutions and swaps of two neighbours
    /// (`biuld` → `build` is one) that turn `a` into `b` (optimal string alignment distance).
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `word` (the first of equals), when it is near enough to be what was meant:
    /// at most 2 edits, and fewer than half the letters of the shorter word.
    package static func nearest(_ word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, between(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = min(2, (min(word.count, best.0.count) - 1) / 2)
        return best.1 <= max(1, limit) ? best.0 : nil
    }
}
