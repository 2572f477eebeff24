/// A data rate: bytes per second written by a recording, or sustained by a disk.
public struct DataRate: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Bytes per second.
    public var bytesPerSecond: Double

    /// `bytesPerSecond` bytes per second.
    public init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

    /// The rate of `bytes` written every `seconds`.
    public init(_ bytes: ByteCount, per seconds: Double) {
        bytesPerSecond = seconds > 0 ? Double(bytes.bytes) / seconds : 0
    }

    /// How long `bytes` lasts at this rate, in seconds; infinite at rate 0.
    public func seconds(toWrite bytes: ByteCount) -> Double {
        bytesPerSecond > 0 ? Double(bytes.bytes) / bytesPerSecond : .infinity
    }

    /// `412 MiB/s`.
    public var description: String {
        "\(ByteCount(saturating: bytesPerSecond))/s"
    }

    /// Orders by rate.
    public static func < (lhs: DataRate, rhs: DataRate) -> Bool {
        lhs.bytesPerSecond < rhs.bytesPerSecond
    }

    /// Encodes as a bare number of bytes per second.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytesPerSecond)
    }

    /// Decodes a bare number of bytes per second.
    public init(from decoder: any Decoder) throws {
        bytesPerSecond = try decoder.singleValueContainer().decode(Double.self)
    }
}
