/// A `Decoder` over a parsed ``JSONValue``, stricter than Foundation's `JSONDecoder` where
/// users' files need it: an integer field refuses `1.5` and `1e30` with the field path and
/// the accepted range, a number field refuses what overflows to infinity, and every type
/// mismatch says what was found. Errors are `DecodingError`s carrying the coding path;
/// ``decodeStrictly(_:from:file:)`` turns them into ``ConfigurationError``s.
struct JSONTreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw JSONTreeDecoder.mismatch("an object", value, codingPath)
        }
        return KeyedDecodingContainer(
            ObjectContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw JSONTreeDecoder.mismatch("an array", value, codingPath)
        }
        return ArrayContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueContainer(value: value, codingPath: codingPath)
    }

    /// Decodes `type` from `value` found at `path`: the scalar types directly (so that their
    /// checks apply), everything else through its own `init(from:)`.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at path: [any CodingKey]
    ) throws -> T {
        switch type {
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("true or false", value, path) }
            return flag as! T
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch("a string", value, path) }
            return text as! T
        case let floatingType as any BinaryFloatingPoint.Type:
            return try number(floatingType, from: value, at: path) as! T
        case let integerType as any FixedWidthInteger.Type:
            return try integer(integerType, from: value, at: path) as! T
        default:
            return try T(from: JSONTreeDecoder(value: value, codingPath: path))
        }
    }

    private static func number<F: BinaryFloatingPoint>(
        _ type: F.Type, from value: JSONValue, at path: [any CodingKey]
    ) throws -> F {
        guard case .number(let literal) = value, let double = Double(literal) else {
            throw mismatch("a number", value, path)
        }
        let result = F(double)
        guard result.isFinite else {
            throw corrupted("expected a finite number, got \(literal) (too large)", path)
        }
        return result
    }

    private static func integer<I: FixedWidthInteger>(
        _ type: I.Type, from value: JSONValue, at path: [any CodingKey]
    ) throws -> I {
        guard case .number(let literal) = value else { throw mismatch("an integer", value, path) }
        let range = "an integer from \(I.min) to \(I.max)"
        if !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            guard let result = I(literal, radix: 10) else {
                throw corrupted("expected \(range), got \(literal)", path)
            }
            return result
        }
        guard let double = Double(literal), double == double.rounded(.towardZero) else {
            throw corrupted("expected an integer, got \(literal)", path)
        }
        guard let result = I(exactly: double) else {
            throw corrupted("expected \(range), got \(literal)", path)
        }
        return result
    }

    static func mismatch(_ expected: String, _ found: JSONValue, _ path: [any CodingKey])
        -> DecodingError
    {
        corrupted("expected \(expected), got \(found.summary)", path)
    }

    static func corrupted(_ problem: String, _ path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: problem))
    }
}

/// The members of a JSON object, looked up by key.
private struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let allKeys: [Key]
    let codingPath: [any CodingKey]

    init(members: [(key: String, value: JSONValue)], codingPath: [any CodingKey]) {
        // Keys are unique: the parser refuses duplicates.
        self.members = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
        self.allKeys = members.compactMap { Key(stringValue: $0.key) }
        self.codingPath = codingPath
    }

    func contains(_ key: Key) -> Bool {
        members[key.stringValue] != nil
    }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "required key is missing"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try member(key) == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONTreeDecoder.decode(type, from: member(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey>
    {
        try superDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try superDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(forKey: Key(stringValue: "super")!)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTreeDecoder(value: try member(key), codingPath: codingPath + [key])
    }
}

/// The elements of a JSON array, read in order.
private struct ArrayContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var currentPath: [any CodingKey] { codingPath + [AnyCodingKey(intValue: currentIndex)] }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw JSONTreeDecoder.corrupted(
                "expected more elements, the array has \(elements.count)", codingPath)
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], currentPath)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try JSONTreeDecoder.decode(type, from: value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try superDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try superDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return JSONTreeDecoder(value: value, codingPath: path)
    }
}

/// One JSON value, for types that decode from a single scalar.
private struct ValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        value == .null
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONTreeDecoder.decode(type, from: value, at: codingPath)
    }
}
