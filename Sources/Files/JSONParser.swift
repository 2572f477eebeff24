/// A strict RFC 8259 JSON parser for users' files: a UTF-8 byte-order mark is skipped, a
/// duplicate key is an error naming its field path, nesting is bounded, and every error names
/// the line and column an editor shows.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted; deeper documents are refused
    /// rather than risking the stack.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var offset = 0
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    /// Parses one JSON document (any value at the top level) from `bytes`.
    ///
    /// - Throws: ``ConfigurationError`` with the field path where one applies (a duplicate
    ///   key) and `not valid JSON: … at line L, column C` for syntax errors.
    public static func parse(_ bytes: some Sequence<UInt8>) throws(ConfigurationError)
        -> JSONValue
    {
        var parser = JSONParser(Array(bytes))
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else {
            throw parser.syntaxError("unexpected text after the document")
        }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(ConfigurationError) -> JSONValue {
        guard let byte = peek() else { throw syntaxError("unexpected end of the document") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw syntaxError("unexpected character '\(Self.printable(byte))'")
        }
    }

    private mutating func parseObject() throws(ConfigurationError) -> JSONValue {
        try enterContainer()
        offset += 1
        var members: [(key: String, value: JSONValue)] = []
        // Where each key starts; lines are counted only for an error, since counting them
        // for every key made a large document quadratic.
        var keyOffsets: [String: Int] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw syntaxError("expected a key in double quotes")
            }
            let keyOffset = offset
            let key = try parseString()
            if let firstOffset = keyOffsets[key] {
                path.append(.key(key))
                throw ConfigurationError(
                    path: pathText(),
                    problem:
                        "duplicate key (line \(location(of: keyOffset).line); first at line \(location(of: firstOffset).line))"
                )
            }
            keyOffsets[key] = keyOffset
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw syntaxError("expected ':' after a key") }
            offset += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append((key, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return .object(members)
            default: throw syntaxError("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(ConfigurationError) -> JSONValue {
        try enterContainer()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return .array(elements)
            default: throw syntaxError("expected ',' or ']' in an array")
            }
        }
    }

    private func enterContainer() throws(ConfigurationError) {
        guard path.count < Self.maximumDepth else {
            throw syntaxError("nested deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseNumber() throws(ConfigurationError) -> JSONValue {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), Self.isDigit(first) else {
            throw syntaxError("expected a digit in a number")
        }
        offset += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let digit = peek(), Self.isDigit(digit) else {
                throw syntaxError("expected a digit after the decimal point")
            }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard let digit = peek(), Self.isDigit(digit) else {
                throw syntaxError("expected a digit in the exponent")
            }
            skipDigits()
        }
        return .number(literal: String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    private mutating func parseString() throws(ConfigurationError) -> String {
        offset += 1  // the opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        func flushRun(_ end: Int) throws(ConfigurationError) {
            guard runStart < end else { return }
            guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                throw syntaxError("expected UTF-8 text in a string")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard let byte = peek() else { throw syntaxError("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                try flushRun(offset)
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flushRun(offset)
                offset += 1
                scalars.append(try parseEscape())
                runStart = offset
            case 0..<0x20:
                throw syntaxError("control character in a string (escape it)")
            default:
                offset += 1
            }
        }
    }

    private mutating func parseEscape() throws(ConfigurationError) -> Unicode.Scalar {
        guard let byte = peek() else { throw syntaxError("unterminated string") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try parseHexUnit()
            if UTF16.isLeadSurrogate(unit) {
                guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count,
                    bytes[offset + 1] == UInt8(ascii: "u")
                else { throw syntaxError("a lone surrogate in a \\u escape") }
                offset += 2
                let trail = try parseHexUnit()
                guard UTF16.isTrailSurrogate(trail) else {
                    throw syntaxError("a lone surrogate in a \\u escape")
                }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00)
                return Unicode.Scalar(value)!
            }
            guard let scalar = Unicode.Scalar(unit) else {
                throw syntaxError("a lone surrogate in a \\u escape")
            }
            return scalar
        default:
            throw syntaxError("unknown escape '\\\(Self.printable(byte))'")
        }
    }

    /// Four hex digits, exactly (`UInt16(_:radix:)` alone would take a sign: `\\u+041`).
    private mutating func parseHexUnit() throws(ConfigurationError) -> UInt16 {
        guard offset + 4 <= bytes.count else {
            throw syntaxError("expected four hex digits after \\u")
        }
        var unit: UInt16 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = Self.hexDigit(byte) else {
                throw syntaxError("expected four hex digits after \\u")
            }
            unit = unit << 4 | UInt16(digit)
        }
        offset += 4
        return unit
    }

    /// The value of one hex digit, `nil` for any other byte.
    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func expectWord(_ word: String) throws(ConfigurationError) {
        let expected = Array(word.utf8)
        guard bytes[offset...].starts(with: expected) else {
            throw syntaxError("unexpected character '\(Self.printable(bytes[offset]))'")
        }
        offset += expected.count
    }

    // MARK: Bytes

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        {
            offset += 1
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { offset += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    // MARK: Errors

    /// The line and column of byte `position`, as an editor counts them.
    private func location(of position: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(position, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, position - lineStart + 1)
    }

    private func pathText() -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    private func syntaxError(_ problem: String) -> ConfigurationError {
        let (line, column) = location(of: offset)
        return ConfigurationError(
            path: "", problem: "not valid JSON: \(problem) at line \(line), column \(column)")
    }
}
