/// A temperature in degrees Celsius.
///
/// Encoded in JSON as a plain number. Kernel interfaces report millidegrees; use
/// ``init(millidegrees:)`` for those.
public struct Celsius: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The temperature in degrees Celsius.
    public var value: Double

    /// A temperature of `value` degrees Celsius.
    public init(_ value: Double) {
        self.value = value
    }

    /// A temperature given in thousandths of a degree, as hwmon and thermal zones report it.
    public init(millidegrees: Int) {
        self.value = Double(millidegrees) / 1000
    }

    /// Decodes a plain JSON number.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Double.self)
    }

    /// Encodes a plain JSON number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// Orders temperatures from cold to hot.
    public static func < (lhs: Celsius, rhs: Celsius) -> Bool { lhs.value < rhs.value }

    /// `+45.0 °C`-style text with one decimal.
    public var description: String {
        let tenths = (value * 10).rounded() / 10
        return "\(tenths >= 0 ? "+" : "")\(tenths) °C"
    }

    /// This temperature moved by `degrees`.
    public func adding(_ degrees: Double) -> Celsius { Celsius(value + degrees) }
}
