import FoundationEssentials

extension JSONEncoder {
    /// The encoder of every JSON document Headroom writes for people and scripts (`--json`,
    /// run.json, launch reports, the storage manifest): pretty, keys sorted, `/` unescaped, and
    /// non-finite numbers spelled `"Infinity"`, `"-Infinity"`, `"NaN"` — a cost over a budget
    /// of 0 is infinite, and a plain `JSONEncoder` refuses to encode it at all.
    public static func document() -> JSONEncoder {
        let encoder = line()
        encoder.outputFormatting.insert(.prettyPrinted)
        return encoder
    }

    /// The same as ``document()`` on one line, for messages (the API's event streams, MQTT
    /// payloads): with keys sorted, the same value is the same bytes.
    public static func line() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    /// `value` encoded, or — should encoding fail, which for Headroom's own value types is a
    /// bug, since non-finite numbers are spelled out — a JSON object naming the type and the
    /// failure (`{"error": "…"}`), so that a reader sees an error, never an empty or a made-up
    /// document.
    public func encodeExplainingFailure<Value: Encodable>(_ value: Value) -> Data {
        do {
            return try encode(value)
        } catch {
            let explanation = ["error": "Headroom could not encode its \(Value.self): \(error)"]
            // A dictionary of strings always encodes.
            return (try? encode(explanation)) ?? Data(#"{"error": "encoding failed"}"#.utf8)
        }
    }
}
