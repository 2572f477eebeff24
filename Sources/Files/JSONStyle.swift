/// How Headroom writes JSON: ``document`` for people and scripts (`--json`, run.json, launch
/// reports, the storage manifest), ``line`` for messages (the API's event streams, MQTT
/// payloads). Both sort object keys by their bytes, so the same value is the same bytes; leave
/// `/` unescaped; and spell non-finite numbers `"Infinity"`, `"-Infinity"`, `"NaN"` — a cost
/// over a budget of 0 is infinite, and JSON has no number for it. The text is what Foundation's
/// `JSONEncoder` writes with `.sortedKeys`, `.withoutEscapingSlashes` and that spelling
/// (`.prettyPrinted` for a document), without linking Foundation.
public struct JSONStyle: Sendable, Equatable {
    /// Whether the text is indented, two spaces a level, with `" : "` between key and value.
    public let pretty: Bool

    /// Pretty-printed.
    public static let document = JSONStyle(pretty: true)
    /// On one line.
    public static let line = JSONStyle(pretty: false)

    /// `value` as JSON text. Throws only what the value's own `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> [UInt8] {
        write(try JSONTreeEncoder.tree(of: value))
    }

    /// `value` encoded, or — should encoding fail, which for Headroom's own value types is a
    /// bug — a JSON object naming the type and the failure (`{"error": "…"}`), so that a reader
    /// sees an error, never an empty or a made-up document.
    public func encodeExplainingFailure<Value: Encodable>(_ value: Value) -> [UInt8] {
        do {
            return try encode(value)
        } catch {
            return write(
                .object([
                    ("error", .string("Headroom could not encode its \(Value.self): \(error)"))
                ]))
        }
    }

    /// `value` as JSON text in this style.
    public func write(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(value)
        return writer.bytes
    }
}

/// Appends JSON text to `bytes`, members in the order the value holds them.
private struct JSONWriter {
    let pretty: Bool
    var bytes: [UInt8] = []
    private var depth = 0

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let literal): bytes.append(contentsOf: literal.utf8)
        case .string(let text): write(string: text)
        case .array(let elements):
            writeContainer(open: "[", close: "]", elements) { $0.write($1) }
        case .object(let members):
            writeContainer(open: "{", close: "}", members) { writer, member in
                writer.write(string: member.key)
                writer.bytes.append(contentsOf: (writer.pretty ? " : " : ":").utf8)
                writer.write(member.value)
            }
        }
    }

    /// `open`, the items separated by commas, `close`; pretty, each item on a line of its own
    /// and an empty container as an empty line between its brackets, as Foundation writes it.
    private mutating func writeContainer<Item>(
        open: Unicode.Scalar, close: Unicode.Scalar, _ items: [Item],
        item writeItem: (inout JSONWriter, Item) -> Void
    ) {
        bytes.append(UInt8(ascii: open))
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            depth += 1
        }
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if pretty {
                if index > 0 { bytes.append(UInt8(ascii: "\n")) }
                indent()
            }
            writeItem(&self, item)
        }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            depth -= 1
            indent()
        }
        bytes.append(UInt8(ascii: close))
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// A quoted string: `"` and `\` escaped, control characters as `\n`, `\t` … or `\u00XX`.
    private mutating func write(string text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
