import Synchronization
import Units

/// The launch phases of one process: where launch time goes.
///
/// Marking is cheap enough to leave on in production: one clock read, one relaxed atomic
/// increment and one atomic store into a preallocated slot — no allocation and no lock, from
/// any thread. The timeline keeps the first ``capacity`` events; later ones are counted as
/// dropped. Build a ``LaunchReport`` from it once the launch is over (``report(label:)``).
public final class LaunchTimeline: Sendable {
    /// How many events (begins, ends and marks) a timeline keeps.
    public static let capacity = 1024

    /// The instant reports count from: the process start when known, else the creation time.
    public let origin: MonotonicInstant
    /// When the process started, when it was known at creation.
    public let processStart: MonotonicInstant?
    /// When the timeline was created (normally first thing in `main`).
    public let createdAt: MonotonicInstant

    private let slots: InlineArray<1024, Atomic<UInt64>>
    private let reserved = Atomic<Int>(0)

    /// A timeline starting now; with a `processStart` (see ``ProcessStartTime``) the report
    /// counts from it and shows the `processStart` phase up to now.
    public init(processStart: MonotonicInstant? = nil) {
        let now = MonotonicClock.now()
        self.createdAt = now
        self.processStart = processStart.map { min($0, now) }
        self.origin = self.processStart ?? now
        self.slots = InlineArray { _ in Atomic<UInt64>(0) }
    }

    /// A timeline counting from this process's start as read from `/proc/self/stat`, or from
    /// now when it cannot be read.
    public static func startingAtProcessStart() -> LaunchTimeline {
        LaunchTimeline(processStart: try? ProcessStartTime.read())
    }

    /// Records that `phase` begins now.
    @inline(__always)
    public func begin(_ phase: LaunchPhase) {
        record(.begin, phase, MonotonicClock.now())
    }

    /// Records that `phase` ends now; pairs with the latest unmatched ``begin(_:)`` of it.
    @inline(__always)
    public func end(_ phase: LaunchPhase) {
        record(.end, phase, MonotonicClock.now())
    }

    /// Records that `phase`, an instant such as `.firstPreviewFrame`, happens now.
    @inline(__always)
    public func mark(_ phase: LaunchPhase) {
        record(.mark, phase, MonotonicClock.now())
    }

    /// Records that `phase` happened at `instant` (for events timestamped elsewhere, such as a
    /// frame's capture time); instants before ``origin`` count as the origin.
    public func mark(_ phase: LaunchPhase, at instant: MonotonicInstant) {
        record(.mark, phase, instant)
    }

    /// Runs `body` inside `phase` (begin before, end after, also when it throws).
    public func measure<Result, Failure: Error>(
        _ phase: LaunchPhase, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        begin(phase)
        defer { end(phase) }
        return try body()
    }

    /// Runs the asynchronous `body` inside `phase`.
    public func measure<Result>(
        _ phase: LaunchPhase, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        begin(phase)
        defer { end(phase) }
        return try await body()
    }

    /// Events recorded beyond ``capacity`` and therefore lost.
    public var droppedEventCount: Int {
        max(reserved.load(ordering: .relaxed) - Self.capacity, 0)
    }

    /// The events recorded so far, in the order their slots were taken (which is time order
    /// per thread). Slots taken but not yet written by a concurrent marker are skipped.
    public func events() -> [TimelineEvent] {
        let count = min(reserved.load(ordering: .acquiring), Self.capacity)
        var events: [TimelineEvent] = []
        events.reserveCapacity(count)
        for index in 0..<count {
            let word = slots[index].load(ordering: .acquiring)
            if let event = TimelineEvent(packed: word, origin: origin) { events.append(event) }
        }
        return events
    }

    @inline(__always)
    private func record(
        _ kind: TimelineEvent.Kind, _ phase: LaunchPhase, _ instant: MonotonicInstant
    ) {
        let index = reserved.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < Self.capacity else { return }
        let word = TimelineEvent.pack(kind, phase, instant, origin: origin)
        slots[index].store(word, ordering: .releasing)
    }
}

/// One recorded event of a ``LaunchTimeline``.
public struct TimelineEvent: Hashable, Sendable {
    /// What happened to the phase.
    public enum Kind: UInt64, Sendable {
        /// The phase began.
        case begin = 1
        /// The phase ended.
        case end = 2
        /// The phase happened at an instant.
        case mark = 3
    }

    /// What happened.
    public var kind: Kind
    /// The phase it happened to.
    public var phase: LaunchPhase
    /// When, on the monotonic clock.
    public var instant: MonotonicInstant

    /// Creates an event.
    public init(kind: Kind, phase: LaunchPhase, instant: MonotonicInstant) {
        self.kind = kind
        self.phase = phase
        self.instant = instant
    }

    // One 64-bit word per event so that a slot is written by a single atomic store:
    // kind (2 bits) | phase id (12 bits) | nanoseconds since the origin (50 bits, 13 days).
    private static let timeBits: UInt64 = 50
    private static let timeMask: UInt64 = (1 << timeBits) - 1

    @inline(__always)
    static func pack(
        _ kind: Kind, _ phase: LaunchPhase, _ instant: MonotonicInstant, origin: MonotonicInstant
    ) -> UInt64 {
        let offset =
            instant.nanoseconds > origin.nanoseconds ? instant.nanoseconds - origin.nanoseconds : 0
        return kind.rawValue << 62 | UInt64(phase.id & 0xFFF) << timeBits | min(offset, timeMask)
    }

    init?(packed word: UInt64, origin: MonotonicInstant) {
        guard let kind = Kind(rawValue: word >> 62) else { return nil }
        self.kind = kind
        self.phase = LaunchPhase(id: UInt16(truncatingIfNeeded: word >> Self.timeBits & 0xFFF))
        self.instant = MonotonicInstant(nanoseconds: origin.nanoseconds + (word & Self.timeMask))
    }
}
