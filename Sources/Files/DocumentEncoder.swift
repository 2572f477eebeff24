import Foundation

extension JSONEncoder {
    /// The encoder of every JSON document Headroom writes for people and scripts (`--json`,
    /// run.json, launch reports, the storage manifest): pretty, keys sorted, `/` unescaped, and
    /// non-finite numbers spelled `"Infinity"`, `"-Infinity"`, `"NaN"` — a cost over a budget
    /// of 0 is infinite, and a plain `JSONEncoder` refuses to encode it at all.
    public static func document() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }
}
