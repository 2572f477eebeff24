/// The id the host governor gives a registered client: 16 lowercase hex digits, unguessable,
/// used in the service's URLs (`/v1/clients/{id}`).
public struct ClientID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The id's text.
    public let rawValue: String

    /// A new random id.
    public static func random() -> ClientID {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return ClientID(rawValue: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// An id for text that has the shape of one (16 lowercase hex digits), else nil.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 16, text.utf8.allSatisfy(Self.isHexDigit) else { return nil }
        rawValue = String(text)
    }

    private init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Decodes the id's text, refusing anything not shaped like an id.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ClientID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a client id"))
        }
        self = id
    }

    /// Encodes the id's text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The id's text.
    public var description: String { rawValue }

    /// Ordered by text, so listings are stable.
    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
