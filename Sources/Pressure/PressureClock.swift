import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The time source of an observer: real in production, manual in tests so that no test
/// depends on timing.
public protocol PressureClock: Sendable {
    /// Seconds since an arbitrary origin; never goes backwards.
    func now() -> Double
    /// Suspends until `now() ≥ deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func sleep(until deadline: Double) async throws
}

/// `CLOCK_MONOTONIC` in seconds, sleeping with `Task.sleep`.
public struct MonotonicPressureClock: PressureClock {
    /// The system's monotonic clock.
    public init() {}

    /// Seconds since boot on `CLOCK_MONOTONIC`.
    public func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Sleeps until `deadline`.
    ///
    /// - Throws: `CancellationError` when cancelled.
    public func sleep(until deadline: Double) async throws {
        let remaining = deadline - now()
        if remaining > 0 { try await Task.sleep(nanoseconds: UInt64(remaining * 1e9)) }
        try Task.checkCancellation()
    }
}

/// A clock that moves only when told to: ``advance(by:)`` wakes every sleeper whose deadline
/// has passed. For tests and for replaying traces at full speed.
public final class ManualPressureClock: PressureClock {
    private struct Sleeper {
        var deadline: Double
        var continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var now: Double
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }
    private let state: Mutex<State>

    /// A clock reading `start` seconds.
    public init(start: Double = 0) {
        state = Mutex(State(now: start))
    }

    /// The current manual time.
    public func now() -> Double { state.withLock { $0.now } }

    /// How many tasks are waiting on the clock; lets a test wait until a sleeper arrived.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves time forward by `seconds` and wakes the sleepers now due.
    public func advance(by seconds: Double) {
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.now += max(0, seconds)
            let now = state.now
            let ready = state.sleepers.filter { $0.value.deadline <= now }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Suspends until the clock is advanced to `deadline`.
    ///
    /// - Throws: `CancellationError` when cancelled while waiting.
    public func sleep(until deadline: Double) async throws {
        let id: Int = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    if state.now >= deadline || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
