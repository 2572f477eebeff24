import Files
import Units

/// How long a client's frames took to process: every duration, or two percentiles.
public enum WorkDurations: Hashable, Sendable, Codable {
    /// The work time of each frame, seconds.
    case each([Double])
    /// The median and the 95th percentile, seconds.
    case percentiles(p50: Double, p95: Double)

    /// The most durations one report may carry.
    public static let limit = 10_000

    enum CodingKeys: String, CodingKey, CaseIterable { case p50, p95 }

    /// Decodes an array of seconds or `{"p50", "p95"}`, each finite, 0–3600 s.
    public init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var values: [Double] = []
            while !list.isAtEnd {
                guard values.count < Self.limit else {
                    throw DecodingError.dataCorruptedError(
                        in: list, debugDescription: "expected at most \(Self.limit) durations")
                }
                let index = AnyCodingKey(intValue: values.count)
                let value = try list.decode(Double.self)
                guard value.isFinite, (0...3600).contains(value) else {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: list.codingPath + [index],
                            debugDescription: "expected seconds from 0 to 3600, got \(value)"))
                }
                values.append(value)
            }
            self = .each(values)
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let p50 = try container.decode(Double.self, forKey: .p50)
        let p95 = try container.decode(Double.self, forKey: .p95)
        for (key, value) in [(CodingKeys.p50, p50), (.p95, p95)]
        where !(value.isFinite && (0...3600).contains(value)) {
            throw decoder.invalidValue(key, "expected seconds from 0 to 3600, got \(value)")
        }
        guard p95 >= p50 else {
            throw decoder.invalidValue(CodingKeys.p95, "expected at least p50 (\(p50)), got \(p95)")
        }
        self = .percentiles(p50: p50, p95: p95)
    }

    /// Encodes as it was decoded.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .each(let values):
            var container = encoder.singleValueContainer()
            try container.encode(values)
        case .percentiles(let p50, let p95):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(p50, forKey: .p50)
            try container.encode(p95, forKey: .p95)
        }
    }

    /// The median work time, seconds; nil without durations.
    public var median: Double? {
        switch self {
        case .each(let values):
            guard !values.isEmpty else { return nil }
            return values.sorted()[values.count / 2]
        case .percentiles(let p50, _):
            return p50
        }
    }

    /// The share of frames whose work took longer than `target` seconds (from the two
    /// percentiles: 0.5 when the median is over, 0.05 when only the 95th percentile is).
    public func shareOver(_ target: Double) -> Share {
        switch self {
        case .each(let values):
            guard !values.isEmpty else { return .zero }
            return Share(fraction: Double(values.count { $0 > target }) / Double(values.count))
        case .percentiles(let p50, let p95):
            return p50 > target ? 0.5 : p95 > target ? 0.05 : .zero
        }
    }
}

/// What a client pipeline reports about its recent frames (Android ADPF's
/// `reportActualWorkDuration` against a target): the request body of
/// `POST /v1/clients/{id}/report`.
public struct WorkReport: Hashable, Sendable, Codable {
    /// Frames processed since the last report.
    public var frames: Int
    /// Of those, frames finished after their deadline.
    public var late: Int
    /// Frames dropped unprocessed since the last report.
    public var dropped: Int
    /// How long the processed frames' work took.
    public var workSeconds: WorkDurations
    /// The work time a frame may take (the frame interval, for a pipeline that keeps up with
    /// its camera); `targetSeconds` in the request body.
    @SecondsCoded public var target: Duration

    /// A report with every field given.
    public init(
        frames: Int, late: Int = 0, dropped: Int = 0, workSeconds: WorkDurations,
        target: Duration
    ) {
        self.frames = frames
        self.late = late
        self.dropped = dropped
        self.workSeconds = workSeconds
        self.target = target
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case frames, late, dropped, workSeconds
        case target = "targetSeconds"
    }

    /// Decodes a report strictly: counts from 0 to 10⁶ (`late` at most `frames`), a target
    /// above 0 and at most 3600 s.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frames = try container.decode(Int.self, forKey: .frames)
        late = try container.decodeIfPresent(Int.self, forKey: .late) ?? 0
        dropped = try container.decodeIfPresent(Int.self, forKey: .dropped) ?? 0
        workSeconds = try container.decode(WorkDurations.self, forKey: .workSeconds)
        let targetSeconds = try container.decode(Double.self, forKey: .target)
        for (key, value) in [(CodingKeys.frames, frames), (.late, late), (.dropped, dropped)]
        where !(0...1_000_000).contains(value) {
            throw decoder.invalidValue(key, "expected an integer from 0 to 1000000, got \(value)")
        }
        guard late <= frames else {
            throw decoder.invalidValue(
                CodingKeys.late, "expected at most frames (\(frames)), got \(late)")
        }
        guard targetSeconds.isFinite, targetSeconds > 0, targetSeconds <= 3600 else {
            throw decoder.invalidValue(
                CodingKeys.target, "expected 0 < seconds ≤ 3600, got \(targetSeconds)")
        }
        target = .seconds(targetSeconds)
    }

    /// Parses and validates a report; errors name the field path.
    public static func decode(_ data: some Sequence<UInt8>) throws(ConfigurationError) -> WorkReport
    {
        try decodeStrictly(WorkReport.self, from: data, file: nil)
    }

    /// The share of frames that missed their deadline: late or dropped ones among all, or the
    /// share of work durations over the target when that is larger.
    public var lateShare: Share {
        let all = frames + dropped
        let counted = Share(fraction: all > 0 ? Double(late + dropped) / Double(all) : 0)
        return max(counted, workSeconds.shareOver(target.seconds))
    }
}
