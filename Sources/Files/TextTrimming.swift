extension StringProtocol {
    /// The text without the spaces, tabs, line ends and other white space at either end (what
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives, which needs
    /// Foundation's character sets and so its internationalisation data).
    public func trimmingWhitespace() -> String {
        // ASCII white space is found byte by byte; characters (grapheme breaking, Unicode's
        // properties: twenty times the cost) are looked at only when an end is not ASCII.
        let text = Substring(self)
        let bytes = text.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, Self.isASCIIWhitespace(bytes[start]) {
            start = bytes.index(after: start)
        }
        while start < end, Self.isASCIIWhitespace(bytes[bytes.index(before: end)]) {
            end = bytes.index(before: end)
        }
        guard start < end, bytes[start] >= 0x80 || bytes[bytes.index(before: end)] >= 0x80
        else { return String(text[start..<end]) }
        let rest = text[start..<end]
        guard let first = rest.firstIndex(where: { !$0.isWhitespace }),
            let last = rest.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(rest[first...last])
    }

    /// Tab, line feed, vertical tab, form feed, carriage return or space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
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
