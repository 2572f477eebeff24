/// The identifier of a run stored in the history (SQLite's row id, from 1 upwards).
public struct RunID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The row id.
    public var rawValue: Int64

    /// The run with row id `rawValue`.
    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Orders runs by when they were stored.
    public static func < (lhs: RunID, rhs: RunID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The row id in decimal.
    public var description: String { String(rawValue) }

    /// Decodes the bare number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    /// Encodes the bare number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
