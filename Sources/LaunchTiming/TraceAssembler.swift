/// Builds a ``LaunchReport`` from trace events (``TraceEvent``): what `launch measure -- CMD`
/// reads from a program's trace descriptor and what `launch import` reads from a Chrome trace.
///
/// Begins pair with the latest open begin of the same name on the same thread (an unnamed end
/// with the innermost); phases still open when the launch ends are reported up to its end and
/// marked incomplete. The protocol's names of Headroom's own phases (``standardNames``) become
/// those phases; any other name is kept as the program's own phase. Whatever cannot be used —
/// an end without its begin, a time before the process started, events over ``eventLimit`` —
/// is left out and counted in the report's notes, never fatal.
public struct TraceAssembler: Sendable {
    /// The most events one launch keeps; later ones are dropped and counted.
    public static let eventLimit = 10_000

    /// How far past the moment it was read an event's own time may lie, in µs, before it is
    /// taken for a time on another clock (CLOCK_REALTIME, say) and replaced by that moment.
    public static let futureAllowance = 1_000_000.0

    /// The protocol's names for Headroom's own phases.
    public static let standardNames: [String: LaunchPhase] = [
        "app.init": .appInit, "session.configure": .sessionConfiguration,
        "session.start": .sessionStart, "output.init": .outputInitialization,
        "first_frame": .firstPreviewFrame, "deferred.start": .deferredStart,
    ]

    /// What the report's times count from, in the events' microseconds.
    public let originMicroseconds: Double
    /// The name of the event that ends the launch, if one does.
    public let readyName: String?
    /// When the ready event happened, in the events' microseconds, once it has.
    public private(set) var readyMicroseconds: Double?
    /// The earliest event kept, in the events' microseconds.
    public private(set) var firstEventMicroseconds: Double?
    /// The latest end of an event kept, in the events' microseconds.
    public private(set) var lastEventMicroseconds: Double?

    private var intervals: [PhaseInterval] = []
    private var marks: [PhaseMark] = []
    private var open: [Int: [Int]] = [:]
    private var keptCount = 0
    private var droppedCount = 0
    private var notes = TraceNotes()

    /// An assembler for a launch whose times count from `originMicroseconds`, ended by the
    /// event named `readyName` when one is given.
    public init(originMicroseconds: Double, readyName: String? = nil) {
        self.originMicroseconds = originMicroseconds
        self.readyName = readyName
    }

    /// Whether the ready event has arrived; later events are ignored.
    public var isReady: Bool { readyMicroseconds != nil }

    /// How many events were kept.
    public var eventCount: Int { keptCount }

    /// Adds `event`; one without a timestamp happened at `receivedAt` (µs).
    ///
    /// - Returns: whether it was the ready event.
    @discardableResult
    public mutating func add(_ event: TraceEvent, receivedAt: Double? = nil) -> Bool {
        guard !isReady else { return false }
        let isReadyEvent = readyName.map { event.name == $0 } ?? false
        // The ready event ends the launch even after a flood.
        guard keptCount < Self.eventLimit || isReadyEvent else {
            droppedCount += 1
            notes.add(.overLimit)
            return false
        }
        guard var time = event.timestamp ?? receivedAt else { return false }
        if let receivedAt, time > receivedAt + Self.futureAllowance {
            notes.add(.afterArrival, "\"\(event.name)\"")
            time = receivedAt
        }
        guard time >= originMicroseconds else {
            let early = (originMicroseconds - time) / 1000
            notes.add(.beforeStart, "\"\(event.name)\" \(Self.millisecondsText(early)) ms early")
            return false
        }
        // A report holds a week (LaunchReport.secondsRange): what ends later could be stored
        // but never imported again.
        let endSeconds = (time - originMicroseconds + (event.duration ?? 0)) / 1e6
        guard LaunchReport.secondsRange.contains(endSeconds) else {
            notes.add(
                .beyondRange, "\"\(event.name)\" at \(Self.millisecondsText(endSeconds * 1000)) ms")
            return false
        }
        let name = Self.standardNames[event.name]?.name ?? event.name
        let elapsed = Duration.seconds((time - originMicroseconds) / 1e6)
        let thread = event.threadID ?? 0
        switch event.phase {
        case .instant:
            marks.append(PhaseMark(name: name, time: elapsed))
        case .complete:
            intervals.append(
                PhaseInterval(
                    name: name, start: elapsed, duration: .seconds((event.duration ?? 0) / 1e6)))
        case .begin:
            open[thread, default: []].append(intervals.count)
            intervals.append(
                PhaseInterval(name: name, start: elapsed, duration: .zero, isComplete: false))
        case .end:
            let stack = open[thread] ?? []
            guard
                let position = event.name.isEmpty
                    ? stack.indices.last
                    : stack.lastIndex(where: { intervals[$0].name == name })
            else {
                notes.add(.unmatchedEnd, "\"\(event.name)\"")
                return false
            }
            let index = stack[position]
            intervals[index].duration = max(elapsed - intervals[index].start, .zero)
            intervals[index].isComplete = true
            open[thread]?.remove(at: position)
        }
        keptCount += 1
        firstEventMicroseconds = min(firstEventMicroseconds ?? time, time)
        lastEventMicroseconds = max(lastEventMicroseconds ?? time, time + (event.duration ?? 0))
        guard isReadyEvent else { return false }
        readyMicroseconds = time
        return true
    }

    /// Records `count` problems of the input that are not events (a malformed or overlong
    /// line, events of other kinds).
    public mutating func note(_ kind: TraceNotes.Kind, _ example: String? = nil, count: Int = 1) {
        notes.add(kind, example, count: count)
    }

    /// The report of the launch, which ended at `endMicroseconds` (the ready event's time
    /// when there was one). With `addsProcessStart` (the origin is the process's creation), a
    /// `processStart` phase spans from it to the first event.
    public func report(
        label: String, startedAt: Double, origin: ReportOrigin, endMicroseconds: Double,
        addsProcessStart: Bool = false, failure: LaunchFailure? = nil,
        metadata: [String: String] = [:]
    ) -> LaunchReport {
        let end = Duration.seconds(
            max((readyMicroseconds ?? endMicroseconds) - originMicroseconds, 0) / 1e6)
        var phases = intervals
        for stack in open.values {
            for index in stack {
                phases[index].duration = max(end - phases[index].start, .zero)
            }
        }
        if addsProcessStart, let first = firstEventMicroseconds {
            phases.append(
                PhaseInterval(
                    name: LaunchPhase.processStart.name, start: .zero,
                    duration: .seconds((first - originMicroseconds) / 1e6)))
        }
        return LaunchReport(
            label: label, startedAt: startedAt, origin: origin,
            phases: LaunchTimeline.nested(phases), marks: marks.sorted { $0.time < $1.time },
            droppedEvents: droppedCount, metadata: metadata, failure: failure,
            notes: notes.lines)
    }

    static func millisecondsText(_ value: Double) -> String {
        String(Double(Int((value * 10).rounded())) / 10)
    }
}

/// The problems of a trace, counted by kind with the first example of each, so that a flood
/// of bad lines makes a few notes, not a flood of notes.
public struct TraceNotes: Sendable {
    /// A kind of problem.
    public enum Kind: Int, CaseIterable, Sendable {
        /// A line that is not a JSON event object.
        case malformedLine
        /// A line longer than the protocol allows.
        case lineTooLong
        /// An `E` with no open `B` of its name.
        case unmatchedEnd
        /// An event timed before the process started.
        case beforeStart
        /// Events beyond ``TraceAssembler/eventLimit``.
        case overLimit
        /// Events of kinds a launch has no use for (metadata, counters, flows).
        case otherKind
        /// Events timed after they were read: not on `CLOCK_MONOTONIC`.
        case afterArrival
        /// Events ending beyond the week a report holds.
        case beyondRange
    }

    private var counts: [Kind: (count: Int, example: String?)] = [:]

    /// Counts `count` problems of `kind`, keeping `example` when it is the first.
    public mutating func add(_ kind: Kind, _ example: String? = nil, count: Int = 1) {
        guard count > 0 else { return }
        let entry = counts[kind] ?? (0, Self.printable(example))
        counts[kind] = (entry.count + count, entry.example)
    }

    /// One line per kind seen, in the order of ``Kind``.
    public var lines: [String] {
        Kind.allCases.compactMap { kind in
            guard let (count, example) = counts[kind] else { return nil }
            let text =
                switch kind {
                case .malformedLine: "\(count) malformed line(s) ignored"
                case .lineTooLong:
                    "\(count) line(s) over \(TraceLineBuffer.lineLimit) bytes ignored"
                case .unmatchedEnd: "\(count) end event(s) without a begin ignored"
                case .beforeStart: "\(count) event(s) timed before the process started ignored"
                case .overLimit:
                    "\(count) event(s) over the limit of \(TraceAssembler.eventLimit) dropped"
                case .otherKind: "\(count) event(s) of other kinds (metadata, counters) skipped"
                case .afterArrival:
                    "\(count) event(s) timed after they were read (ts not on CLOCK_MONOTONIC?)"
                        + " stamped when read"
                case .beyondRange:
                    "\(count) event(s) ending more than \(Int(LaunchReport.secondsRange.upperBound))"
                        + " s after the start ignored"
                }
            return example.map { "\(text); the first: \($0)" } ?? text
        }
    }

    /// At most 120 characters of `text`, control characters shown as `?`.
    private static func printable(_ text: String?) -> String? {
        guard let text else { return nil }
        let clean = String(
            text.unicodeScalars.prefix(120).map {
                $0.properties.generalCategory == .control ? "?" : Character($0)
            })
        return text.unicodeScalars.count > 120 ? clean + "…" : clean
    }
}
