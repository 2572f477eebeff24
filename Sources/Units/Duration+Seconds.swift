/// Seconds as a number, for arithmetic with rates and for the documents that count time in
/// seconds; times themselves stay `Duration`s.
extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero.
    public var wholeNanoseconds: Int64 {
        components.seconds &* 1_000_000_000 &+ components.attoseconds / 1_000_000_000
    }

    /// The duration in seconds. A duration of whole nanoseconds (every clock reading's) gives
    /// exactly `Double(nanoseconds) / 1e9`, as `MonotonicInstant.seconds(since:)` does, so a
    /// time kept as a `Duration` writes the same number it did as seconds.
    public var seconds: Double {
        let (whole, attoseconds) = components
        if attoseconds % 1_000_000_000 == 0, abs(whole) < 9_000_000_000 {
            return Double(whole * 1_000_000_000 + attoseconds / 1_000_000_000) / 1e9
        }
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

extension Duration {
    /// `seconds` to the nanosecond: the inverse of ``seconds`` for a duration of whole
    /// nanoseconds (every clock reading's), so a time a document wrote reads back equal. Beyond
    /// ``representableSeconds`` it saturates (a NaN is zero); documents refuse such times first.
    public static func seconds(roundedToNanoseconds seconds: Double) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let bound = representableSeconds.upperBound
        return .nanoseconds(Int64((min(max(seconds, -bound), bound) * 1e9).rounded()))
    }

    /// The seconds a duration of whole nanoseconds holds: about ±292 years (kept a little
    /// inside `Int64`'s nanoseconds).
    public static let representableSeconds: ClosedRange<Double> = -9.2e9...9.2e9
}
