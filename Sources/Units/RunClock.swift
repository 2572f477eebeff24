import Locking

/// The one clock of a run: every loop of it — the camera's frames, the stand's motors, the
/// pressure sampler, the governor, the progress samples — reads and waits on the same clock,
/// injected, so that a run can be played on real time (``ContinuousRunClock``) or on virtual
/// time (``VirtualRunClock``: as fast as the machine goes, and the same on any machine).
///
/// Instants are ``MonotonicInstant``s: on the real clock they are `CLOCK_MONOTONIC`'s; a
/// virtual clock starts at the monotonic time it was made and moves only when it is waited on.
public protocol RunClock: Sendable {
    /// The current instant.
    var now: MonotonicInstant { get }

    /// Suspends the calling task until `deadline` (returns at once when it has passed).
    ///
    /// - Throws: `CancellationError` when the task is cancelled, at once or while waiting.
    func sleep(until deadline: MonotonicInstant) async throws

    /// Declares a task that will wait on this clock, before the task starts; run the task's
    /// work in ``ClockParticipant/run(_:)``. A virtual clock moves only while every declared
    /// task waits on it, so a declared task must wait on nothing else for long (a stream fed
    /// by another participant would stop the clock).
    func enroll() -> ClockParticipant

    /// Ends the clock's time: from now on no waiter is woken by time passing (only by
    /// cancellation), so nothing happens after the instant a run ended, however long its
    /// teardown takes. Real time cannot be stopped: there the run's cancellation alone ends
    /// its loops.
    func halt()
}

extension RunClock {
    /// Suspends the calling task for `duration`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now.advanced(by: duration))
    }
}

/// A task's place on a ``RunClock``: from ``RunClock/enroll()`` until its work in ``run(_:)``
/// ends (or ``leave()``).
public struct ClockParticipant: Sendable {
    /// The participant's number on its clock; a virtual clock wakes participants due at the
    /// same instant in this order.
    public let number: Int
    private let clock: any RunClock
    private let departure: @Sendable () -> Void

    /// The participant whose work the current task is doing, if any.
    @TaskLocal static var current: Int?

    init(number: Int, clock: any RunClock, departure: @escaping @Sendable () -> Void) {
        self.number = number
        self.clock = clock
        self.departure = departure
    }

    /// Runs `body` as this participant: it first waits for its turn at the current instant
    /// (on a virtual clock, participants start one at a time, in order), and leaves the clock
    /// when `body` ends, however it ends.
    ///
    /// - Throws: What `body` throws, or `CancellationError` when cancelled before its turn.
    public func run<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await Self.$current.withValue(number) {
            defer { departure() }
            try await clock.sleep(until: clock.now)
            return try await body()
        }
    }

    /// Leaves the clock without running anything (a declared task that will not start).
    public func leave() { departure() }
}

extension ClockParticipant {
    /// A participant of a clock that does not count its participants (real time, a test's
    /// manual clock): it takes its turn at once and leaves with nothing to tell.
    public static func uncounted(on clock: any RunClock) -> ClockParticipant {
        ClockParticipant(number: 0, clock: clock, departure: {})
    }
}

/// Real time: `CLOCK_MONOTONIC`, waiting on Headroom's own timer thread.
public struct ContinuousRunClock: RunClock {
    /// The system's monotonic clock.
    public init() {}

    /// Now on `CLOCK_MONOTONIC`.
    public var now: MonotonicInstant { MonotonicClock.now() }

    /// Sleeps until `deadline` on the monotonic clock, woken by Headroom's own timer thread
    /// (``MonotonicTimers``), not libdispatch's.
    public func sleep(until deadline: MonotonicInstant) async throws {
        try Task.checkCancellation()
        guard deadline > now else { return }
        try await MonotonicTimers.shared.sleep(until: deadline)
    }

    /// Real time moves by itself: participants are not counted.
    public func enroll() -> ClockParticipant { .uncounted(on: self) }

    /// Real time goes on.
    public func halt() {}
}

/// Virtual time: a discrete-event clock. It stands still while any participant works and,
/// when every participant waits on it, jumps to the earliest deadline and wakes that one waiter
/// alone (equal deadlines in participant order). One participant runs at a time, in an order
/// that depends only on the deadlines, so a run on virtual time does the same work in the same
/// order on an idle and a loaded machine, and goes as fast as the machine allows.
public final class VirtualRunClock: RunClock {
    private struct Waiter {
        var deadline: MonotonicInstant
        var participant: Int
        var sequence: Int
        var continuation: CheckedContinuation<Void, any Error>

        func precedes(_ other: Waiter) -> Bool {
            (deadline, participant, sequence)
                < (other.deadline, other.participant, other.sequence)
        }
    }

    private struct State {
        var now: MonotonicInstant
        /// Participants that are working (declared and not waiting on the clock).
        var working = 0
        var nextParticipant = 1
        var nextSequence = 0
        var waiters: [Int: Waiter] = [:]
        var isHalted = false
    }

    private let state: LockedState<State>

    /// A clock reading `start` (by default the monotonic clock's now).
    public init(start: MonotonicInstant = MonotonicClock.now()) {
        state = LockedState(State(now: start))
    }

    /// The virtual now.
    public var now: MonotonicInstant { state.withLock { $0.now } }

    /// How many participants are working now.
    public var workingParticipants: Int { state.withLock { $0.working } }

    /// Declares a participant: the clock stands still until it waits or leaves.
    public func enroll() -> ClockParticipant {
        let number = state.withLock { state in
            state.working += 1
            defer { state.nextParticipant += 1 }
            return state.nextParticipant
        }
        return ClockParticipant(number: number, clock: self) { [self] in
            let woken = state.withLock { state -> Waiter? in
                state.working -= 1
                return Self.wakeNext(&state)
            }
            woken?.continuation.resume()
        }
    }

    /// Stops virtual time where it is: waiters now wake only when cancelled.
    public func halt() {
        state.withLock { $0.isHalted = true }
    }

    /// Waits until the clock reaches `deadline`: the clock moves there once every participant
    /// waits and no earlier waiter is due.
    public func sleep(until deadline: MonotonicInstant) async throws {
        try Task.checkCancellation()
        let participant = ClockParticipant.current
        let sequence = state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let woken = state.withLock { state -> Waiter? in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return nil
                    }
                    state.waiters[sequence] = Waiter(
                        deadline: deadline, participant: participant ?? Int.max,
                        sequence: sequence, continuation: continuation)
                    if participant != nil { state.working -= 1 }
                    return Self.wakeNext(&state)
                }
                woken?.continuation.resume()
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: sequence) else { return nil }
                if waiter.participant != Int.max { state.working += 1 }
                return waiter
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// When no participant works, the earliest waiter, removed, with the clock moved to its
    /// deadline and it counted as working again.
    private static func wakeNext(_ state: inout State) -> Waiter? {
        guard state.working == 0, !state.isHalted,
            let next = state.waiters.values.min(by: { $0.precedes($1) })
        else { return nil }
        state.waiters[next.sequence] = nil
        state.now = max(state.now, next.deadline)
        if next.participant != Int.max { state.working += 1 }
        return next
    }
}
