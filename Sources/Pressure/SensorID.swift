/// The stable name of one sensor, such as `coretemp-isa-0000/temp1` or `thermal_zone0`.
///
/// Identifiers are unique within a sample and stay the same across samples and restarts,
/// so traces, configurations and metrics can refer to a sensor by them.
public struct SensorID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier's text.
    public var rawValue: String

    /// An identifier with the text `rawValue`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// An identifier written as a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Decodes a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders identifiers by their text.
    public static func < (lhs: SensorID, rhs: SensorID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The identifier's text.
    public var description: String { rawValue }
}
