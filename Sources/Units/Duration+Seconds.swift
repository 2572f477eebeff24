/// Seconds as a number, for arithmetic with rates and for the documents that count time in
/// seconds; times themselves stay `Duration`s.
extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero.
    public var wholeNanoseconds: Int64 {
        components.seconds &* 1_000_000_000 &+ components.attoseconds / 1_000_000_000
    }

    /// The duration in seconds.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
