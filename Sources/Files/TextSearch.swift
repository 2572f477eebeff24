/// Finding and replacing text without Swift's string-processing module, where the standard
/// library keeps `contains(_:)` and `replacing(_:with:)` for strings: the daemon's modules do
/// not import it, so that `headroomd` loads neither it nor its regular-expression parser.
/// Characters compare as `==` compares them (canonical equivalence).
extension StringProtocol {
    /// Whether `other` occurs in the text; an empty `other` occurs in any text.
    public func includes(_ other: some StringProtocol) -> Bool {
        firstOccurrence(of: Array(other)) != nil
    }

    /// The text with every occurrence of `target`, left to right and not overlapping, replaced
    /// by `replacement`; an empty `target` replaces nothing.
    public func replacingEvery(_ target: some StringProtocol, with replacement: some StringProtocol)
        -> String
    {
        let wanted = Array(target)
        guard !wanted.isEmpty else { return String(self) }
        var result = ""
        var rest = Substring(self)
        while let found = rest.firstOccurrence(of: wanted) {
            result += rest[..<found.lowerBound]
            result += replacement
            rest = rest[found.upperBound...]
        }
        return result + rest
    }

    /// Where `wanted` first occurs, character by character.
    private func firstOccurrence(of wanted: [Character]) -> Range<Index>? {
        var start = startIndex
        while true {
            var index = start
            var matched = 0
            while matched < wanted.count, index < endIndex, self[index] == wanted[matched] {
                formIndex(after: &index)
                matched += 1
            }
            if matched == wanted.count { return start..<index }
            guard start < endIndex else { return nil }
            formIndex(after: &start)
        }
    }
}
