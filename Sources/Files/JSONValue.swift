/// A parsed JSON document, as ``JSONParser`` reads it: objects keep their keys in document
/// order (duplicates are rejected while parsing), numbers keep their literal so that an
/// integer field can tell `3` from `3.5` and from `1e30` exactly.
public indirect enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written in the document (`-12`, `1.5e3`).
    case number(literal: String)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in document order; keys are unique.
    case object([(key: String, value: JSONValue)])

    /// Compares values; objects compare member by member, in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// An object's members; nil for any other value.
    public var members: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The value of an object's member `key`; nil when there is none, or this is no object.
    public subscript(key: String) -> JSONValue? {
        members?.first { $0.key == key }?.value
    }

    /// A number's value (an integer too); nil for any other value.
    public var number: Double? {
        if case .number(let literal) = self { Double(literal) } else { nil }
    }

    /// How the value is named in an error: `a string "abc"`, `the number 1.5`, `an object`.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let literal): "the number \(literal)"
        case .string(let text):
            "a string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
