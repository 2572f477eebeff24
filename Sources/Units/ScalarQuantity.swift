/// A quantity that is one number in a unit of its own (``FrameRate``, ``Share``): written as a
/// literal where one reads best, ordered by its number, and coded as the plain number, so that
/// documents keep their shape.
public protocol ScalarQuantity: Hashable, Comparable, Sendable, Codable,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral
{
    /// The number, in the quantity's unit.
    var number: Double { get }

    /// The quantity of `number` in its unit.
    init(number: Double)
}

extension ScalarQuantity {
    /// A quantity written as a decimal literal, in the quantity's unit.
    public init(floatLiteral value: Double) {
        self.init(number: value)
    }

    /// A quantity written as an integer literal, in the quantity's unit.
    public init(integerLiteral value: Int) {
        self.init(number: Double(value))
    }

    /// Decodes the plain number.
    public init(from decoder: any Decoder) throws {
        self.init(number: try decoder.singleValueContainer().decode(Double.self))
    }

    /// Encodes the plain number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    /// Orders quantities by their numbers.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.number < rhs.number
    }
}
