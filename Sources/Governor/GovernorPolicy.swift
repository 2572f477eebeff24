import Files
import Pressure
import Units

/// A value for each pressure level below `shutdown` (which always stops capture).
public struct PerLevel<Value: Hashable & Sendable & Codable>: Hashable, Sendable, Codable {
    /// At `nominal`.
    public var nominal: Value
    /// At `fair`.
    public var fair: Value
    /// At `serious`.
    public var serious: Value
    /// At `critical`.
    public var critical: Value

    /// Creates the four values.
    public init(nominal: Value, fair: Value, serious: Value, critical: Value) {
        self.nominal = nominal
        self.fair = fair
        self.serious = serious
        self.critical = critical
    }

    /// The value at `level`; `shutdown` shares `critical`'s.
    public subscript(level: PressureLevel) -> Value {
        switch level {
        case .nominal: nominal
        case .fair: fair
        case .serious: serious
        case .critical, .shutdown: critical
        }
    }
}

/// How the governor maps pressure to pipeline settings. The defaults follow the references:
/// at `serious` cap the frame rate at 20 fps and lighten inference within a small quality loss;
/// at `critical` go to the 15 fps floor and the lightest inference; at `shutdown` stop capture.
public struct GovernorPolicy: Hashable, Sendable, Codable {
    /// The highest frame rate allowed at each level; `nil` = as requested.
    public var frameRateCap: PerLevel<FrameRate?>
    /// The tracking quality (MOTA, absolute) the inference setting may lose at each level, from
    /// the quality table's best at that frame rate; 1 means "the lightest setting".
    public var allowedQualityLoss: PerLevel<Double>
    /// The lowest frame rate the governor ever sets.
    public var minimumFrameRate: FrameRate
    /// The least time between two step-downs (a step-down to `critical` or `shutdown` never
    /// waits); `stepDownDwellSeconds` in a policy file.
    @SecondsCoded public var stepDownDwell: Duration
    /// How long pressure must have eased, and the last change be past, before settings are
    /// restored; `restoreDwellSeconds` in a policy file.
    @SecondsCoded public var restoreDwell: Duration
    /// Inference settings from heaviest to lightest, used when there is no quality table.
    public var inferenceLadder: [InferenceSetting]
    /// The share of frames missing their deadline (processed late or dropped) over the last
    /// period at which the governor sheds load as at `serious`, and at twice it as at
    /// `critical`, whatever the pressure level: a busy host shows in the pipeline's own
    /// lateness, not in CPU pressure.
    public var lateShareToShed: Share

    /// The default policy.
    public init(
        frameRateCap: PerLevel<FrameRate?> = PerLevel(
            nominal: nil, fair: nil, serious: 20, critical: 15),
        allowedQualityLoss: PerLevel<Double> = PerLevel(
            nominal: 0, fair: 0.01, serious: 0.05, critical: 1),
        minimumFrameRate: FrameRate = 15, stepDownDwell: Duration = .seconds(2),
        restoreDwell: Duration = .seconds(10),
        inferenceLadder: [InferenceSetting] = InferenceSetting.standardLadder,
        lateShareToShed: Share = 0.2
    ) {
        self.frameRateCap = frameRateCap
        self.allowedQualityLoss = allowedQualityLoss
        self.minimumFrameRate = minimumFrameRate
        self.stepDownDwell = stepDownDwell
        self.restoreDwell = restoreDwell
        self.inferenceLadder = inferenceLadder
        self.lateShareToShed = lateShareToShed
    }

    /// The level a pipeline is governed at: the pressure level, raised to `serious` when
    /// `lateShare` of its frames missed their deadline (at least ``lateShareToShed``) and to
    /// `critical` at twice that; with why, when lateness raised it.
    public func actingLevel(pressure level: PressureLevel, lateShare: Share) -> (
        level: PressureLevel, lateness: String?
    ) {
        let threshold = lateShareToShed
        guard lateShare >= threshold, level < .critical else { return (level, nil) }
        let late: PressureLevel = lateShare >= threshold * 2 ? .critical : .serious
        guard late > level else { return (level, nil) }
        let percent = Int(lateShare.percent.rounded())
        return (late, "pipeline late: \(percent)% of frames missed their deadline")
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case frameRateCap, allowedQualityLoss, minimumFrameRate, inferenceLadder, lateShareToShed
        case stepDownDwell = "stepDownDwellSeconds"
        case restoreDwell = "restoreDwellSeconds"
    }

    /// Decodes a policy; missing keys keep their defaults, values are range-checked.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = GovernorPolicy()
        frameRateCap =
            try container.decodeIfPresent(PerLevel<FrameRate?>.self, forKey: .frameRateCap)
            ?? defaults.frameRateCap
        allowedQualityLoss =
            try container.decodeIfPresent(PerLevel<Double>.self, forKey: .allowedQualityLoss)
            ?? defaults.allowedQualityLoss
        minimumFrameRate =
            try container.decodeIfPresent(FrameRate.self, forKey: .minimumFrameRate)
            ?? defaults.minimumFrameRate
        let stepDownDwellSeconds =
            try container.decodeIfPresent(Double.self, forKey: .stepDownDwell)
            ?? defaults.stepDownDwell.seconds
        let restoreDwellSeconds =
            try container.decodeIfPresent(Double.self, forKey: .restoreDwell)
            ?? defaults.restoreDwell.seconds
        inferenceLadder =
            try container.decodeIfPresent([InferenceSetting].self, forKey: .inferenceLadder)
            ?? defaults.inferenceLadder
        lateShareToShed =
            try container.decodeIfPresent(Share.self, forKey: .lateShareToShed)
            ?? defaults.lateShareToShed
        guard lateShareToShed > 0, lateShareToShed <= 0.5 else {
            throw decoder.invalidValue(
                CodingKeys.lateShareToShed,
                "expected a share of frames above 0 and at most 0.5, got \(lateShareToShed.fraction)"
            )
        }

        guard minimumFrameRate > 0, minimumFrameRate <= 240 else {
            throw decoder.invalidValue(
                CodingKeys.minimumFrameRate,
                "expected 0 < fps ≤ 240, got \(minimumFrameRate.framesPerSecond)")
        }
        for (key, value) in [
            (CodingKeys.stepDownDwell, stepDownDwellSeconds),
            (.restoreDwell, restoreDwellSeconds),
        ]
        where !(value >= 0 && value <= 3600) {
            throw decoder.invalidValue(key, "expected seconds from 0 to 3600, got \(value)")
        }
        stepDownDwell = .seconds(stepDownDwellSeconds)
        restoreDwell = .seconds(restoreDwellSeconds)
        // Each setting checks its own stride and scale as it is decoded.
        guard (1...Self.ladderLimit).contains(inferenceLadder.count) else {
            throw decoder.invalidValue(
                CodingKeys.inferenceLadder,
                "expected 1 to \(Self.ladderLimit) settings, got \(inferenceLadder.count)")
        }
        for level in [PressureLevel.nominal, .fair, .serious, .critical] {
            if let cap = frameRateCap[level], !(cap > 0) {
                throw decoder.invalidValue(
                    CodingKeys.frameRateCap,
                    "expected positive caps, got \(cap.framesPerSecond) at \(level)")
            }
            let loss = allowedQualityLoss[level]
            if !(loss >= 0 && loss <= 1) {
                throw decoder.invalidValue(
                    CodingKeys.allowedQualityLoss,
                    "expected losses from 0 to 1, got \(loss) at \(level)")
            }
        }
    }

    /// The most settings an inference ladder may have.
    public static let ladderLimit = 32

    /// Parses and validates policy JSON; errors name `file` and the field path.
    public static func decode(_ data: some Sequence<UInt8>, file: String? = nil)
        throws(ConfigurationError)
        -> GovernorPolicy
    {
        try decodeStrictly(GovernorPolicy.self, from: data, file: file)
    }

    /// Reads a policy JSON file.
    public static func load(from path: String) throws(ConfigurationError) -> GovernorPolicy {
        try decode(InputFile.read(path), file: path)
    }
}
