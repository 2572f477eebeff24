/// A part of a whole, as a fraction: 0 is none of it, 1 is all of it — a share of a hardware
/// budget, of frames that were late, of the time a CPU was throttled.
///
/// Demand may ask for more than the whole, so a share is not clamped: 1.4 is 140 % of the
/// budget. Written as a number where a literal reads best (`let share: Share = 0.5`) and coded
/// as a plain fraction in JSON, so documents keep their shape.
public struct Share: Hashable, Comparable, Sendable, Codable, AdditiveArithmetic,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral
{
    /// The fraction of the whole: 0 is none, 1 is all.
    public var fraction: Double

    /// A share of `fraction` of the whole.
    public init(fraction: Double) {
        self.fraction = fraction
    }

    /// A share written as a decimal literal: the fraction.
    public init(floatLiteral value: Double) {
        fraction = value
    }

    /// A share written as an integer literal: 0 or 1 (or a multiple of the whole).
    public init(integerLiteral value: Int) {
        fraction = Double(value)
    }

    /// Decodes a fraction.
    public init(from decoder: any Decoder) throws {
        fraction = try decoder.singleValueContainer().decode(Double.self)
    }

    /// Encodes the fraction.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fraction)
    }

    /// None of the whole.
    public static let zero = Share(fraction: 0)

    /// All of the whole.
    public static let whole = Share(fraction: 1)

    /// The share in percent (0.25 is 25).
    public var percent: Double { fraction * 100 }

    /// The share within 0…1: demand over the whole counts as all of it.
    public var clamped: Share { Share(fraction: min(max(fraction, 0), 1)) }

    /// Orders shares from small to large.
    public static func < (lhs: Share, rhs: Share) -> Bool {
        lhs.fraction < rhs.fraction
    }

    /// The two shares together.
    public static func + (lhs: Share, rhs: Share) -> Share {
        Share(fraction: lhs.fraction + rhs.fraction)
    }

    /// What is left of `lhs` without `rhs`.
    public static func - (lhs: Share, rhs: Share) -> Share {
        Share(fraction: lhs.fraction - rhs.fraction)
    }

    /// The share scaled by `factor`.
    public static func * (share: Share, factor: Double) -> Share {
        Share(fraction: share.fraction * factor)
    }

    /// How many times `lhs` fits in `rhs`'s place: a demand over a budget (infinite when the
    /// budget is zero).
    public static func / (lhs: Share, rhs: Share) -> Double {
        lhs.fraction / rhs.fraction
    }
}
