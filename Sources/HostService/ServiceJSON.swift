import Files
import Pressure

/// How the service writes JSON: documents pretty and sorted (as the CLI's `--json`), event
/// data on one line.
enum ServiceJSON {
    /// `value` as a pretty document ending in a newline.
    static func document(_ value: some Encodable) -> [UInt8] {
        JSONStyle.document.encodeExplainingFailure(value) + [UInt8(ascii: "\n")]
    }

    /// `value` on one line (no newline inside, none after).
    static func line(_ value: some Encodable) -> String {
        String(decoding: JSONStyle.line.encodeExplainingFailure(value), as: UTF8.self)
    }
}

/// A pressure reading as version 1 of the API gives it: `status --json`'s fields with
/// `"version": 1`, and in a `pressure` event the level it changed from.
struct PressureDocument: Encodable {
    /// The API version of the document's shape.
    static let version = 1

    var reading: PressureReading
    var from: PressureLevel?

    enum CodingKeys: String, CodingKey { case version, from }

    func encode(to encoder: any Encoder) throws {
        try reading.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .version)
        try container.encodeIfPresent(from, forKey: .from)
    }
}
