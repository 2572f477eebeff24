import Units

/// One classified reading: the level, its factors, the headroom, and every sensor behind it.
///
/// This is what `headroom status --json` prints, one line of `watch --json`, and what the
/// Governor consumes.
public struct PressureReading: Hashable, Sendable, Codable {
    /// When its sample was taken, on the sampler's clock.
    public var time: MonotonicInstant
    /// The overall level: the most severe factor's (nominal when there are no factors).
    public var level: PressureLevel
    /// Every factor that could be evaluated, most severe first.
    public var factors: [PressureFactor]
    /// Thermal headroom now and forecast.
    public var headroom: HeadroomEstimate
    /// The share of the device's budget sustainable now, 0…1 (see ``SustainableBudget``).
    public var sustainableShare: Share
    /// Whether any value is simulated (thermal model or replay); always shown to users.
    public var simulated: Bool
    /// What the temperature part rests on; `none` means no thermal sensors on this host.
    public var thermal: ThermalCoverage
    /// Every sensor and entry read: temperatures, cooling devices, cpufreq, PSI.
    public var sensors: [SensorReading]
    /// Plain-language caveats: unavailable sources, stale sensors, missing thermal sensors.
    public var notes: [String]
    /// The board's power and GPU signals; `nil` on a board that has none.
    public var board: BoardSignals?
    /// Whether a threshold is within reach: any factor above nominal, headroom (now or
    /// forecast) at or above the reach, a ratio near its `fair` threshold, a rail near its
    /// warning limit. The observer samples at its configured rate then, slowly otherwise.
    public var isWithinReach: Bool

    /// A reading with every field given.
    public init(
        time: MonotonicInstant, level: PressureLevel, factors: [PressureFactor],
        headroom: HeadroomEstimate,
        sustainableShare: Share, simulated: Bool, thermal: ThermalCoverage,
        sensors: [SensorReading], notes: [String], board: BoardSignals? = nil,
        isWithinReach: Bool = true
    ) {
        self.time = time
        self.level = level
        self.factors = factors
        self.headroom = headroom
        self.sustainableShare = sustainableShare
        self.simulated = simulated
        self.thermal = thermal
        self.sensors = sensors
        self.notes = notes
        self.board = board
        self.isWithinReach = isWithinReach
    }
}

/// The overall level moving from one value to another, with the factors at that moment.
public struct LevelChange: Hashable, Sendable, Codable {
    /// When, on the sampler's clock.
    public var time: MonotonicInstant
    /// The level before.
    public var from: PressureLevel
    /// The level now.
    public var to: PressureLevel
    /// The reading that made the change.
    public var reading: PressureReading

    /// A change from `from` to `to` made by `reading`.
    public init(from: PressureLevel, to: PressureLevel, reading: PressureReading) {
        self.time = reading.time
        self.from = from
        self.to = to
        self.reading = reading
    }
}
