/// A coding key for any key or index, used to list an object's keys and to build field paths.
public struct AnyCodingKey: CodingKey {
    /// The key's name (`Index N` for an array index).
    public var stringValue: String
    /// The array index, for index keys.
    public var intValue: Int?

    /// A key named `stringValue`.
    public init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    /// The key of array index `intValue`.
    public init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

/// The pieces that make `Decodable` strict: unknown keys are errors, value checks carry the
/// field path, and every `DecodingError` becomes a ``ConfigurationError`` naming that path.
extension Decoder {
    /// Throws when the object being decoded holds a key that `Keys` does not list; call it
    /// first in every `init(from:)` of a type read from a user's file.
    public func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !known.contains(key.stringValue) {
            let expected = Keys.allCases.map(\.stringValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "unknown key; expected one of: \(expected)"
                ))
        }
    }

    /// The error for a value that decoded but is out of range, at `key` below this decoder;
    /// `problem` says what was expected and what was found.
    public func invalidValue(_ key: some CodingKey, _ problem: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: problem))
    }
}

/// Field paths in the notation users see: `cameras[1].format.maxFrameRate`.
public func fieldPath(_ codingPath: [any CodingKey]) -> String {
    var path = ""
    for key in codingPath {
        if let index = key.intValue, key.stringValue.hasPrefix("Index") {
            path += "[\(index)]"
        } else {
            path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
    }
    return path
}

extension ConfigurationError {
    /// Translates Foundation's decoding errors into errors that name the field and what was expected.
    public init(_ error: DecodingError, file: String?) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(
                file: file, path: fieldPath(context.codingPath),
                problem: "expected \(Self.jsonKind(of: type))")
        case .valueNotFound(let type, let context):
            self.init(
                file: file, path: fieldPath(context.codingPath),
                problem: "expected \(Self.jsonKind(of: type)), found null")
        case .keyNotFound(let key, let context):
            self.init(
                file: file, path: fieldPath(context.codingPath + [key]),
                problem: "required key is missing")
        case .dataCorrupted(let context):
            self.init(
                file: file, path: fieldPath(context.codingPath), problem: context.debugDescription)
        @unknown default:
            self.init(file: file, path: "", problem: "\(error)")
        }
    }

    private static func jsonKind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is UInt.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// Decodes a strict JSON document, turning every failure into a ``ConfigurationError`` that
/// names `file` (when given) and the field path: syntax errors with their line and column, a
/// duplicate key, a number where an integer was expected, a value out of an integer's range.
/// A UTF-8 byte-order mark before the document is skipped.
public func decodeStrictly<Value: Decodable>(
    _ type: Value.Type, from data: some Sequence<UInt8>, file: String?
) throws(ConfigurationError) -> Value {
    let document: JSONValue
    do {
        document = try JSONParser.parse(data)
    } catch {
        throw file.map(error.inFile) ?? error
    }
    return try decodeStrictly(type, from: document, file: file)
}

/// Decodes a document already parsed by ``JSONParser`` (for a caller that looked at its shape
/// first), with the errors of ``decodeStrictly(_:from:file:)-(_,Sequence<UInt8>,_)``.
public func decodeStrictly<Value: Decodable>(
    _ type: Value.Type, from document: JSONValue, file: String?
) throws(ConfigurationError) -> Value {
    do {
        return try JSONTreeDecoder.decode(type, from: document, at: [])
    } catch let error as DecodingError {
        throw ConfigurationError(error, file: file)
    } catch let error as ConfigurationError {
        throw file.map(error.inFile) ?? error
    } catch {
        throw ConfigurationError(file: file, path: "", problem: "\(error)")
    }
}
