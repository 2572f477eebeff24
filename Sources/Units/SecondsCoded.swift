/// Codes a `Duration` as a plain number of seconds, the unit of Headroom's JSON documents
/// (reports, the v1 API, traces): `@SecondsCoded public var time: Duration` reads and writes
/// `"time": 12.5`.
@propertyWrapper
public struct SecondsCoded: Hashable, Sendable, Codable {
    /// The duration.
    public var wrappedValue: Duration

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Duration) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes a number of seconds, within ``Duration/representableSeconds``.
    public init(from decoder: any Decoder) throws {
        let seconds = try decoder.decodeSeconds(
            within: Duration.representableSeconds, expected: "a number of seconds within ±9.2e9")
        wrappedValue = .seconds(roundedToNanoseconds: seconds)
    }

    /// Encodes the number of seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.seconds)
    }
}

/// Codes an optional `Duration` as a number of seconds, leaving the key out when there is none
/// (as an optional number would).
@propertyWrapper
public struct OptionalSecondsCoded: Hashable, Sendable, Codable {
    /// The duration, if any.
    public var wrappedValue: Duration?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Duration?) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes a number of seconds or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try SecondsCoded(from: decoder).wrappedValue
    }

    /// Encodes the number of seconds, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue.seconds)
        } else {
            try container.encodeNil()
        }
    }
}

extension KeyedEncodingContainer {
    /// Leaves the key out for an absent optional duration, as synthesized coding does for an
    /// optional number.
    public mutating func encode(_ value: OptionalSecondsCoded, forKey key: Key) throws {
        if let duration = value.wrappedValue { try encode(duration.seconds, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Reads an absent key as no duration, as synthesized coding does for an optional number.
    public func decode(_ type: OptionalSecondsCoded.Type, forKey key: Key) throws
        -> OptionalSecondsCoded
    {
        try decodeIfPresent(type, forKey: key) ?? OptionalSecondsCoded(wrappedValue: nil)
    }
}
