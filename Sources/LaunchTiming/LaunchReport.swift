import Files
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// One timed phase of a launch report.
public struct PhaseInterval: Hashable, Codable, Sendable {
    /// The phase's name (`sessionStart`, `outputInitialization.photo`, a custom name).
    public var name: String
    /// When it began, since the report's origin (`start` in seconds in the document).
    @SecondsCoded public var start: Duration
    /// How long it lasted (`duration` in seconds in the document).
    @SecondsCoded public var duration: Duration
    /// How many other phases contain it (0 for top-level phases).
    public var depth: Int
    /// The name of the innermost phase containing it, if any.
    public var parent: String?
    /// Whether it ended; an unfinished phase lasts until the report was made.
    public var isComplete: Bool

    /// Creates an interval from `start` since the report's origin, lasting `duration`.
    public init(
        name: String, start: Duration, duration: Duration, depth: Int = 0, parent: String? = nil,
        isComplete: Bool = true
    ) {
        self.name = name
        self.start = start
        self.duration = duration
        self.depth = depth
        self.parent = parent
        self.isComplete = isComplete
    }

    /// When it ended, since the report's origin.
    public var end: Duration { start + duration }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, start, duration, depth, parent
        case isComplete = "complete"
    }

    /// Decodes an interval, rejecting unknown keys and negative times.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if let problem = PhaseNameRule.problem(with: name) {
            throw decoder.invalidValue(CodingKeys.name, problem)
        }
        let startSeconds = try container.decode(Double.self, forKey: .start)
        let durationSeconds = try container.decode(Double.self, forKey: .duration)
        depth = try container.decodeIfPresent(Int.self, forKey: .depth) ?? 0
        parent = try container.decodeIfPresent(String.self, forKey: .parent)
        isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? true
        for (key, value) in [(CodingKeys.start, startSeconds), (.duration, durationSeconds)]
        where !LaunchReport.secondsRange.contains(value) {
            throw decoder.invalidValue(key, LaunchReport.secondsProblem(value))
        }
        start = .seconds(roundedToNanoseconds: startSeconds)
        duration = .seconds(roundedToNanoseconds: durationSeconds)
        guard (0...Self.maximumDepth).contains(depth) else {
            throw decoder.invalidValue(
                CodingKeys.depth, "expected a depth from 0 to \(Self.maximumDepth), got \(depth)")
        }
    }

    /// The deepest nesting a report holds; phases nested deeper are shown at this depth.
    public static let maximumDepth = 64
}

/// One instant of a launch report, such as `firstPreviewFrame`.
public struct PhaseMark: Hashable, Codable, Sendable {
    /// The phase's name.
    public var name: String
    /// When it happened, since the report's origin (`time` in seconds in the document).
    @SecondsCoded public var time: Duration

    /// Creates a mark at `time` since the report's origin.
    public init(name: String, time: Duration) {
        self.name = name
        self.time = time
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, time
    }

    /// Decodes a mark, rejecting unknown keys and negative times.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if let problem = PhaseNameRule.problem(with: name) {
            throw decoder.invalidValue(CodingKeys.name, problem)
        }
        let seconds = try container.decode(Double.self, forKey: .time)
        guard LaunchReport.secondsRange.contains(seconds) else {
            throw decoder.invalidValue(CodingKeys.time, LaunchReport.secondsProblem(seconds))
        }
        time = .seconds(roundedToNanoseconds: seconds)
    }
}

/// What a launch report's times count from.
public enum ReportOrigin: String, Codable, Sendable, CaseIterable {
    /// The kernel's creation of the process (read from `/proc/self/stat`).
    case processStart
    /// The creation of the timeline, when the process start was unknown.
    case timelineStart
}

/// A finished launch: its phases and marks with times in seconds, ready to export or to store
/// in the history. Exporters: `LaunchReportFormat` in `Reports` (JSON, CSV and trace events are here).
public struct LaunchReport: Hashable, Codable, Sendable {
    /// The version of this document's schema.
    public static let currentVersion = 1

    /// The times a report may hold, in seconds since its origin: a launch lasts less than a
    /// week (the bound keeps every exporter's arithmetic and layout finite).
    public static let secondsRange: ClosedRange<Double> = 0...604_800

    /// When a launch may have started, in seconds since 1970: up to the year 2100.
    public static let startedAtRange: ClosedRange<Double> = 0...4_102_444_800

    /// `startedAt` checked against ``startedAtRange``, the problem when it is outside.
    public static func startedAtProblem(_ value: Double) -> String? {
        startedAtRange.contains(value)
            ? nil
            : "expected seconds since 1970 from 0 to \(Int(startedAtRange.upperBound)), got \(value)"
    }

    /// `expected seconds from 0 to 604800, got 1e+308`.
    static func secondsProblem(_ value: Double) -> String {
        "expected seconds from 0 to \(Int(secondsRange.upperBound)), got \(value)"
    }

    /// The schema version the report was written with.
    public var version: Int
    /// What the launch was (`deferred`, `baseline`, a session name); free text.
    public var label: String
    /// Wall-clock time of the report's origin, in seconds since 1970 (UTC).
    public var startedAt: Double
    /// What the times count from.
    public var origin: ReportOrigin
    /// The timed phases, ordered by start.
    public var phases: [PhaseInterval]
    /// The instants, ordered by time.
    public var marks: [PhaseMark]
    /// Events the timeline could not keep (beyond its capacity).
    public var droppedEvents: Int
    /// Free-form facts about the launch (`session`, `host`, `deferredStart`).
    public var metadata: [String: String]
    /// Why the launch failed, when it did (a measured program that crashed, exited non-zero
    /// or never said ready); its phases are then what it recorded before.
    public var failure: LaunchFailure?
    /// What went wrong in the recording without failing the launch (malformed trace lines,
    /// an end without its begin, events over the limit), one line each.
    public var notes: [String]

    /// Creates a report; times are in seconds since `origin`.
    public init(
        label: String, startedAt: Double, origin: ReportOrigin, phases: [PhaseInterval],
        marks: [PhaseMark], droppedEvents: Int = 0, metadata: [String: String] = [:],
        failure: LaunchFailure? = nil, notes: [String] = []
    ) {
        self.version = Self.currentVersion
        self.label = label
        self.startedAt = startedAt
        self.origin = origin
        self.phases = phases
        self.marks = marks
        self.droppedEvents = droppedEvents
        self.metadata = metadata
        self.failure = failure
        self.notes = notes
    }

    /// Whether the launch ended well (it has no ``failure``).
    public var isCompleted: Bool { failure == nil }

    /// The first interval named `name`, if the launch had one.
    public func phase(named name: String) -> PhaseInterval? {
        phases.first { $0.name == name }
    }

    /// When the first mark named `name` happened, or else the first phase of that name began
    /// (a program may end its launch with a `B` or an `X` named ready), since the origin.
    public func time(of name: String) -> Duration? {
        marks.first { $0.name == name }?.time ?? phases.first { $0.name == name }?.start
    }

    /// The time to the first preview frame since the origin, when it was marked.
    public var timeToFirstPreviewFrame: Duration? { time(of: LaunchPhase.firstPreviewFrame.name) }

    /// When the last recorded phase or mark ended, since the origin.
    public var totalDuration: Duration {
        max(phases.map(\.end).max() ?? .zero, marks.map(\.time).max() ?? .zero)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, label, startedAt, origin, phases, marks, droppedEvents, metadata
        case failure, notes
    }

    /// Decodes a report, rejecting unknown keys and versions this code does not know.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw decoder.invalidValue(
                CodingKeys.version, "expected version \(Self.currentVersion), got \(version)")
        }
        label = try container.decode(String.self, forKey: .label)
        startedAt = try container.decode(Double.self, forKey: .startedAt)
        if let problem = Self.startedAtProblem(startedAt) {
            throw decoder.invalidValue(CodingKeys.startedAt, problem)
        }
        origin = try container.decode(ReportOrigin.self, forKey: .origin)
        phases = try container.decode([PhaseInterval].self, forKey: .phases)
        marks = try container.decode([PhaseMark].self, forKey: .marks)
        droppedEvents = try container.decodeIfPresent(Int.self, forKey: .droppedEvents) ?? 0
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]
        failure = try container.decodeIfPresent(LaunchFailure.self, forKey: .failure)
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
    }

    /// Encodes the report; `failure` and `notes` only when there are any, so a completed
    /// report reads (and hashes) as it did before they existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(label, forKey: .label)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(origin, forKey: .origin)
        try container.encode(phases, forKey: .phases)
        try container.encode(marks, forKey: .marks)
        try container.encode(droppedEvents, forKey: .droppedEvents)
        try container.encode(metadata, forKey: .metadata)
        try container.encodeIfPresent(failure, forKey: .failure)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
    }

    /// Parses a report written as JSON (`LaunchReportFormat.json` in `Reports`).
    ///
    /// - Throws: ``ConfigurationError`` naming `file` and the field that is wrong.
    public static func decode(
        _ data: some Sequence<UInt8>, file: String? = nil
    ) throws(ConfigurationError) -> LaunchReport {
        try decodeStrictly(LaunchReport.self, from: data, file: file)
    }

    /// A report from a document already parsed (``Files/JSONParser``), errors naming `file`.
    public static func decode(
        _ document: JSONValue, file: String? = nil
    ) throws(ConfigurationError) -> LaunchReport {
        try decodeStrictly(LaunchReport.self, from: document, file: file)
    }
}

extension LaunchTimeline {
    /// The report of everything recorded so far.
    ///
    /// Begins pair with ends of the same phase (innermost first); a phase still open is reported
    /// up to now and marked incomplete. Nesting is by containment in time, so phases begun on
    /// other threads nest wherever they fall. With a known process start, a `processStart`
    /// phase spans from it to the timeline's creation.
    public func report(label: String = "", metadata: [String: String] = [:]) -> LaunchReport {
        let now = MonotonicClock.now()
        let elapsed = { (instant: MonotonicInstant) in
            max(instant.duration(since: self.origin), .zero)
        }
        var intervals: [PhaseInterval] = []
        if processStart != nil {
            intervals.append(
                PhaseInterval(
                    name: LaunchPhase.processStart.name, start: .zero, duration: elapsed(createdAt))
            )
        }
        var marks: [PhaseMark] = []
        var open: [UInt16: [(index: Int, begin: MonotonicInstant)]] = [:]
        for event in events() {
            switch event.kind {
            case .mark:
                marks.append(PhaseMark(name: event.phase.name, time: elapsed(event.instant)))
            case .begin:
                open[event.phase.id, default: []].append((intervals.count, event.instant))
                intervals.append(
                    PhaseInterval(
                        name: event.phase.name, start: elapsed(event.instant),
                        duration: max(now.duration(since: event.instant), .zero), isComplete: false)
                )
            case .end:
                guard let begun = open[event.phase.id]?.popLast() else { continue }
                intervals[begun.index].duration = max(
                    event.instant.duration(since: begun.begin), .zero)
                intervals[begun.index].isComplete = true
            }
        }
        let wallClockNow = LaunchReport.secondsSince1970()
        return LaunchReport(
            label: label, startedAt: wallClockNow - now.seconds(since: origin),
            origin: processStart == nil ? .timelineStart : .processStart,
            phases: Self.nested(intervals), marks: marks.sorted { $0.time < $1.time },
            droppedEvents: droppedEventCount, metadata: metadata)
    }

    /// Orders intervals by start (longer first on ties) and gives each its depth and parent:
    /// the innermost earlier interval that contains it.
    static func nested(_ intervals: [PhaseInterval]) -> [PhaseInterval] {
        var sorted = intervals.enumerated().sorted { lhs, rhs in
            lhs.element.start != rhs.element.start
                ? lhs.element.start < rhs.element.start
                : lhs.element.duration != rhs.element.duration
                    ? lhs.element.duration > rhs.element.duration : lhs.offset < rhs.offset
        }.map(\.element)
        var stack: [Int] = []
        for index in sorted.indices {
            while let top = stack.last, sorted[top].end < sorted[index].end { stack.removeLast() }
            sorted[index].depth = min(stack.count, PhaseInterval.maximumDepth)
            sorted[index].parent = stack.last.map { sorted[$0].name }
            stack.append(index)
        }
        return sorted
    }
}

extension LaunchReport {
    /// Seconds since 1970 by the wall clock (`CLOCK_REALTIME`): a report's date, which is what
    /// a person reads (the phases are timed on the monotonic clock).
    static func secondsSince1970() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
