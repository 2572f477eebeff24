/// An `Encoder` that builds a ``JSONValue``, the counterpart of ``JSONTreeDecoder``: objects
/// come out with their keys in byte order (so the same value is always the same text), numbers
/// as Swift prints them without a trailing `.0` (`30`, `0.1`, `1e-05`), and non-finite numbers
/// as the strings `"Infinity"`, `"-Infinity"` and `"NaN"` — byte for byte what Foundation's
/// `JSONEncoder` writes with `.sortedKeys` and that spelling, without linking Foundation.
/// A value that encodes nothing is an empty object inside another, and an error at the top, as
/// it is there.
struct JSONTreeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The tree of `value`.
    static func tree<T: Encodable>(of value: T) throws -> JSONValue {
        let root = JSONNode()
        try root.encode(value, at: [])
        guard !root.isEmpty else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return root.value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(ObjectContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return ArrayContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueContainer(node: node, codingPath: codingPath)
    }
}

/// One value being encoded: a scalar, an object or an array whose members are nodes still
/// being filled (containers hand out nested containers before their values are known).
final class JSONNode {
    private var scalar: JSONValue?
    private var members: [String: JSONNode]?
    private var elements: [JSONNode]?

    /// The finished value; a node nothing was written to is an empty object.
    var value: JSONValue {
        if let scalar { return scalar }
        if let elements { return .array(elements.map(\.value)) }
        let sorted = (members ?? [:]).sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return .object(sorted.map { (key: $0.key, value: $0.value.value) })
    }

    /// Whether nothing was written to the node.
    var isEmpty: Bool { scalar == nil && members == nil && elements == nil }

    func becomeObject() {
        if members == nil { members = [:] }
    }

    func becomeArray() {
        if elements == nil { elements = [] }
    }

    /// The member `key`, replacing what an earlier write under the same key left (as
    /// Foundation does), or kept when a nested container comes back for it.
    func member(_ key: String, replacing: Bool) -> JSONNode {
        if !replacing, let existing = members?[key] { return existing }
        let child = JSONNode()
        members![key] = child
        return child
    }

    /// A new last element.
    func appended() -> JSONNode {
        let child = JSONNode()
        elements!.append(child)
        return child
    }

    var elementCount: Int { elements?.count ?? 0 }

    func set(_ value: JSONValue) {
        scalar = value
    }

    /// Writes `value`: the scalar types directly, anything else through its `encode(to:)`.
    func encode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws {
        switch value {
        case let flag as Bool: scalar = .bool(flag)
        case let text as String: scalar = .string(text)
        case let number as Double: scalar = .number(number)
        case let number as Float: scalar = .number(number)
        case let integer as any FixedWidthInteger: scalar = .integer(integer)
        default: try value.encode(to: JSONTreeEncoder(node: self, codingPath: path))
        }
    }
}

extension JSONValue {
    /// A finite number as Swift prints it less a trailing `.0`; a non-finite one as a string.
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        let text = value.description
        return .number(literal: text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }

    static func integer(_ value: some FixedWidthInteger) -> JSONValue {
        .number(literal: "\(value)")
    }
}

/// The members of an object being encoded.
private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) {
        node.member(key.stringValue, replacing: true).set(value)
    }

    mutating func encodeNil(forKey key: Key) { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) { set(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) { set(.number(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { set(.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { set(.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue, replacing: true).encode(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nestedEncoder(AnyCodingKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        nestedEncoder(key)
    }

    private func nestedEncoder(_ key: any CodingKey) -> JSONTreeEncoder {
        JSONTreeEncoder(
            node: node.member(key.stringValue, replacing: false), codingPath: codingPath + [key])
    }
}

/// The elements of an array being encoded, in order.
private struct ArrayContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    var count: Int { node.elementCount }

    private func append(_ value: JSONValue) {
        node.appended().set(value)
    }

    mutating func encodeNil() { append(.null) }
    mutating func encode(_ value: Bool) { append(.bool(value)) }
    mutating func encode(_ value: String) { append(.string(value)) }
    mutating func encode(_ value: Double) { append(.number(value)) }
    mutating func encode(_ value: Float) { append(.number(value)) }
    mutating func encode(_ value: Int) { append(.integer(value)) }
    mutating func encode(_ value: Int8) { append(.integer(value)) }
    mutating func encode(_ value: Int16) { append(.integer(value)) }
    mutating func encode(_ value: Int32) { append(.integer(value)) }
    mutating func encode(_ value: Int64) { append(.integer(value)) }
    mutating func encode(_ value: UInt) { append(.integer(value)) }
    mutating func encode(_ value: UInt8) { append(.integer(value)) }
    mutating func encode(_ value: UInt16) { append(.integer(value)) }
    mutating func encode(_ value: UInt32) { append(.integer(value)) }
    mutating func encode(_ value: UInt64) { append(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [AnyCodingKey(intValue: count)]
        try node.appended().encode(value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        superEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [AnyCodingKey(intValue: count)]
        return JSONTreeEncoder(node: node.appended(), codingPath: path)
    }
}

/// One value, for types that encode as a single scalar.
private struct ValueContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() { node.set(.null) }
    mutating func encode(_ value: Bool) { node.set(.bool(value)) }
    mutating func encode(_ value: String) { node.set(.string(value)) }
    mutating func encode(_ value: Double) { node.set(.number(value)) }
    mutating func encode(_ value: Float) { node.set(.number(value)) }
    mutating func encode(_ value: Int) { node.set(.integer(value)) }
    mutating func encode(_ value: Int8) { node.set(.integer(value)) }
    mutating func encode(_ value: Int16) { node.set(.integer(value)) }
    mutating func encode(_ value: Int32) { node.set(.integer(value)) }
    mutating func encode(_ value: Int64) { node.set(.integer(value)) }
    mutating func encode(_ value: UInt) { node.set(.integer(value)) }
    mutating func encode(_ value: UInt8) { node.set(.integer(value)) }
    mutating func encode(_ value: UInt16) { node.set(.integer(value)) }
    mutating func encode(_ value: UInt32) { node.set(.integer(value)) }
    mutating func encode(_ value: UInt64) { node.set(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.encode(value, at: codingPath)
    }
}
