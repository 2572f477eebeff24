extension StringProtocol {
    /// The text without the spaces, tabs, line ends and other white space at either end (what
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives, which needs
    /// Foundation's character sets and so its internationalisation data).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// Whether the text comes before `other` with runs of digits compared by their value
    /// (`hwmon2` before `hwmon10`), the rest character by character.
    public func precedesNumerically(_ other: some StringProtocol) -> Bool {
        var (left, right) = (Substring(self), Substring(other))
        while let a = left.first, let b = right.first {
            if a.isASCII && a.isNumber && b.isASCII && b.isNumber {
                let leftDigits = left.prefix { $0.isASCII && $0.isNumber }
                let rightDigits = right.prefix { $0.isASCII && $0.isNumber }
                let leftValue = leftDigits.drop { $0 == "0" }
                let rightValue = rightDigits.drop { $0 == "0" }
                if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
                if leftValue != rightValue { return leftValue < rightValue }
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
            } else {
                if a != b { return a < b }
                left = left.dropFirst()
                right = right.dropFirst()
            }
        }
        return left.isEmpty && !right.isEmpty
    }
}
