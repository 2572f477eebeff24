import Files
import Foundation
import Testing
import Units

/// Headroom's JSON writer gives, byte for byte, what Foundation's `JSONEncoder` gives with the
/// options it replaces — for the shapes Codable makes and for random trees of them.
struct JSONStyleTests {
    /// Foundation's encoder set up as ``JSONStyle`` promises to write.
    private func foundation(_ style: JSONStyle) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if style.pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    private func expectSame(
        _ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        for style in [JSONStyle.document, .line] {
            let ours = String(decoding: try style.encode(value), as: UTF8.self)
            let theirs = String(decoding: try foundation(style).encode(value), as: UTF8.self)
            #expect(ours == theirs, sourceLocation: sourceLocation)
        }
    }

    private struct Reading: Codable {
        enum Level: String, Codable { case nominal, serious }
        var level: Level
        var temperature: Double?
        var forecast: [Float]
        var cores: [Int: UInt64]
        var labels: [String: String]
        var notes: [String]
        var nested: [String: [Double]]
        var empty: [String: Int]
        var flag: Bool
        var small: Int8
    }

    @Test("the shapes Codable makes: optionals, enums, dictionaries, empty containers, numbers")
    func codableShapes() throws {
        let reading = Reading(
            level: .serious, temperature: 71.5, forecast: [0.1, 1, 2.5e-7],
            cores: [3: .max, 0: 12, 10: 1], labels: ["b/c": "é \"q\" \\ \u{7}", "a": "\n\t\r"],
            notes: [], nested: ["z": [], "y": [1e20, 1e16, -0.0, 100, 0.1 + 0.2]], empty: [:],
            flag: true, small: -128)
        try expectSame(reading)
        var missing = reading
        missing.temperature = nil
        try expectSame(missing)
        try expectSame([Double.infinity, -.infinity, .nan, 9_007_199_254_740_994, 1.0 / 3])
        try expectSame(["Zebra", "apple", "Äpfel", "a\u{0}b", "\u{1f}\u{7f}"])
        try expectSame(Int64.min)
        try expectSame("a fragment")
        try expectSame([[String: Int]]())
        try expectSame([[Int]](repeating: [], count: 2))
    }

    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    private struct Containers: Encodable {
        enum Keys: String, CodingKey { case outer, list, again }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var outer = container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
            try outer.encode(1, forKey: .list)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Nothing())
            var inner = list.nestedContainer(keyedBy: Keys.self)
            try inner.encodeNil(forKey: .again)
            try list.encode("x")
            try container.encode(2, forKey: .again)
            try container.encode(3, forKey: .again)
            try Nothing().encode(to: container.superEncoder())
        }
    }

    @Test("nested containers, a key written twice, a value that writes nothing, super encoders")
    func containers() throws {
        try expectSame(Containers())
        try expectSame([Nothing()])
        #expect(throws: EncodingError.self) { try JSONStyle.line.encode(Nothing()) }
        #expect(throws: EncodingError.self) { try foundation(.line).encode(Nothing()) }
    }

    /// A random JSON-shaped value.
    private indirect enum Tree: Encodable {
        case number(Double)
        case integer(Int)
        case text(String)
        case flag(Bool)
        case none
        case list([Tree])
        case object([String: Tree])

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            switch self {
            case .number(let value): try single.encode(value)
            case .integer(let value): try single.encode(value)
            case .text(let value): try single.encode(value)
            case .flag(let value): try single.encode(value)
            case .none: try single.encodeNil()
            case .list(let elements): try single.encode(elements)
            case .object(let members): try single.encode(members)
            }
        }

        static func random(depth: Int, using generator: inout some RandomNumberGenerator) -> Tree {
            let characters = Array("aZ é/\\\"\n\u{1}{}[]:,0😀")
            let text = String(
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    characters.randomElement(using: &generator)!
                })
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
            case 0:
                return .number(
                    [0.1, 1e-9, 123_456.789, 1e300, -2.5, 42]
                        .randomElement(using: &generator)!
                        * Double.random(in: -2...2, using: &generator))
            case 1: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
            case 2: return .text(text)
            case 3: return .flag(Bool.random(using: &generator))
            case 4: return .none
            case 5:
                return .list(
                    (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                        random(depth: depth + 1, using: &generator)
                    })
            default:
                var members: [String: Tree] = [:]
                for index in 0..<Int.random(in: 0...4, using: &generator) {
                    members[text + "\(index)"] = random(depth: depth + 1, using: &generator)
                }
                return .object(members)
            }
        }
    }

    @Test("500 random trees are written as Foundation writes them")
    func randomTrees() throws {
        var generator = SeededGenerator(seed: 51)
        for _ in 0..<500 {
            try expectSame(Tree.random(depth: 0, using: &generator))
        }
    }

    @Test("a failing encode gives a JSON object naming the type and the failure")
    func failure() {
        struct Refuses: Encodable {
            struct Refusal: Error {}
            func encode(to encoder: any Encoder) throws { throw Refusal() }
        }
        let text = String(
            decoding: JSONStyle.line.encodeExplainingFailure(Refuses()), as: UTF8.self)
        #expect(text.hasPrefix(#"{"error":"Headroom could not encode its Refuses: "#))
    }
}
