/// Rising thresholds for the levels above nominal, and the hysteresis that keeps a level from
/// flapping: a value enters a level at its threshold and leaves it only once it has fallen
/// the level's hysteresis margin below.
public struct ThresholdLadder: Hashable, Sendable {
    /// One level's entry threshold and exit margin.
    public struct Step: Hashable, Sendable {
        /// The level entered at ``threshold``.
        public var level: PressureLevel
        /// The value at or above which the level applies.
        public var threshold: Double
        /// How far below ``threshold`` the value must fall to leave the level (≥ 0).
        public var hysteresis: Double

        /// A step entering `level` at `threshold`, left `hysteresis` below it.
        public init(level: PressureLevel, threshold: Double, hysteresis: Double) {
            self.level = level
            self.threshold = threshold
            self.hysteresis = max(0, hysteresis)
        }
    }

    /// The steps, in any order.
    public var steps: [Step]

    /// A ladder of `steps`.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// The level of `value` without memory: the most severe step whose threshold it reaches.
    public func level(of value: Double) -> PressureLevel {
        steps.filter { value >= $0.threshold }.map(\.level).max() ?? .nominal
    }

    /// The level of `value` given the level held before: rising is immediate, falling needs
    /// the value to fall to its threshold minus its hysteresis or lower.
    public func level(of value: Double, previously held: PressureLevel) -> PressureLevel {
        let rising = level(of: value)
        let sticky =
            steps.filter { $0.level <= held && value > $0.threshold - $0.hysteresis }
            .map(\.level).max() ?? .nominal
        return max(rising, sticky)
    }

    /// The threshold of `level`, when the ladder has one.
    public func threshold(of level: PressureLevel) -> Double? {
        steps.first { $0.level == level }?.threshold
    }
}
