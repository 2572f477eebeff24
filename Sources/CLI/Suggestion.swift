/// The known word a mistyped one most likely meant, for "did you mean" in usage errors.
public enum Suggestion {
    /// The word of `known` closest to `word` by edit distance (a letter inserted, deleted,
    /// replaced, or two neighbours swapped), when it is close enough to be a typo: at most a
    /// third of the word's letters apart, and nearer than every other.
    public static func closest(to word: String, among known: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let ranked = known.map { (name: $0, distance: distance(word, $0)) }
            .filter { $0.distance <= limit }
            .sorted { $0.distance < $1.distance }
        guard let best = ranked.first else { return nil }
        return ranked.dropFirst().first?.distance == best.distance ? nil : best.name
    }

    /// The optimal string alignment distance between `a` and `b`.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(
                    rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }

    /// ` (did you mean X?)` for `word`, or nothing.
    public static func hint(for word: String, among known: [String]) -> String {
        closest(to: word, among: known).map { " (did you mean \($0)?)" } ?? ""
    }
}
