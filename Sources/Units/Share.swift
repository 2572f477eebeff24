/// A part of a whole, as a fraction: 0 is none of it, 1 is all of it — a share of a hardware
/// budget, of frames that were late, of the time a CPU was throttled.
///
/// Demand may ask for more than the whole, so a share is not clamped: 1.4 is 140 % of the
/// budget. Written as a number where a literal reads best (`let share: Share = 0.5`) and coded
/// as a plain fraction in JSON, so documents keep their shape.
public struct Share: ScalarQuantity, AdditiveArithmetic {
    /// The fraction of the whole: 0 is none, 1 is all.
    public var fraction: Double

    /// The fraction (``ScalarQuantity``'s number).
    public var number: Double { fraction }

    /// A share of `number` of the whole.
    public init(number: Double) {
        fraction = number
    }

    /// A share of `fraction` of the whole.
    public init(fraction: Double) {
        self.fraction = fraction
    }

    /// None of the whole.
    public static let zero = Share(fraction: 0)

    /// All of the whole.
    public static let whole = Share(fraction: 1)

    /// The share in percent (0.25 is 25).
    public var percent: Double { fraction * 100 }

    /// The share within 0…1: demand over the whole counts as all of it.
    public var clamped: Share { Share(fraction: min(max(fraction, 0), 1)) }

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
