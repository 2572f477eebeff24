import Locking

/// Time moved by hand: it reads what it was last moved to (``advance(to:)``,
/// ``advance(by:)``), and a task sleeping on it wakes once it is moved past its deadline.
/// `headroom replay` runs the host service on one, moved to each recorded reading's instant,
/// so that the governor decides at the trace's times; tests drive services with one.
public final class ManualRunClock: RunClock {
    private struct Sleeper {
        var deadline: MonotonicInstant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: MonotonicInstant
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
    }

    private let state: LockedState<State>

    /// A clock reading `start`.
    public init(start: MonotonicInstant = .origin) {
        state = LockedState(State(now: start))
    }

    /// The instant the clock was last moved to.
    public var now: MonotonicInstant { state.withLock { $0.now } }

    /// How many tasks are sleeping on the clock; lets a test wait until a sleeper arrived.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves time forward to `instant` (never back) and wakes the sleepers now due.
    public func advance(to instant: MonotonicInstant) {
        let woken = state.withLock { state in
            state.now = max(state.now, instant)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Moves time forward by `duration` and wakes the sleepers now due.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: max(.zero, duration)))
    }

    /// Suspends the calling task until the clock is moved to `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: MonotonicInstant) async throws {
        let id = state.withLock { state in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let isDue = state.withLock { state in
                    if Task.isCancelled || state.now >= deadline { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if isDue { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Every participant is free: the clock moves only when told to.
    public func enroll() -> ClockParticipant { .uncounted(on: self) }

    /// Nothing: the clock already moves only when told to.
    public func halt() {}
}
