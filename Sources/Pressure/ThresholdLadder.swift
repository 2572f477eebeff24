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
        var level = PressureLevel.nominal
        for step in steps where value >= step.threshold && step.level > level { level = step.level }
        return level
    }

    /// The level of `value` given the level held before: rising is immediate, falling needs
    /// the value to fall to its threshold minus its hysteresis or lower.
    public func level(of value: Double, previously held: PressureLevel) -> PressureLevel {
        let rising = level(of: value)
        var sticky = PressureLevel.nominal
        for step in steps
        where step.level <= held && value > step.threshold - step.hysteresis && step.level > sticky
        {
            sticky = step.level
        }
        return max(rising, sticky)
    }

    /// The threshold of `level`, when the ladder has one.
    public func threshold(of level: PressureLevel) -> Double? {
        steps.first { $0.level == level }?.threshold
    }
}
