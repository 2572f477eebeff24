import Locking
import Testing
import Units

/// Real time's sleeps, woken by Headroom's own timer thread: never before the deadline, an
/// earlier deadline not kept waiting behind a later one, cancellation at once.
@Suite(.timeLimit(.minutes(1))) struct ContinuousRunClockTests {
    private let clock = ContinuousRunClock()

    @Test("a sleep ends at its deadline, not before; one whose deadline has passed at once")
    func endsAtDeadline() async throws {
        let deadline = clock.now.advanced(by: .milliseconds(20))
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
        let past = clock.now
        try await clock.sleep(until: past.advanced(by: .seconds(-1)))
    }

    @Test("sleeps with deadlines in any order all end, each at or after its own")
    func manySleeps() async throws {
        let start = clock.now
        let offsets = [7, 1, 12, 3, 3, 9, 0, 5, 11, 2, 8, 4, 6, 10, 1, 7]
        let lateness = LockedState<[Bool]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for offset in offsets {
                group.addTask { [clock] in
                    let deadline = start.advanced(by: .milliseconds(2 * offset))
                    try await clock.sleep(until: deadline)
                    let isOnTime = clock.now >= deadline
                    lateness.withLock { $0.append(isOnTime) }
                }
            }
            try await group.waitForAll()
        }
        #expect(lateness.withLock { $0 } == Array(repeating: true, count: offsets.count))
    }

    @Test("a deadline earlier than the one the timer thread waits for is not kept waiting")
    func earlierDeadlineWakesFirst() async throws {
        let hourLong = Task { [clock] in try await clock.sleep(for: .seconds(3600)) }
        // The hour-long sleep is filed first (or soon): the short one must not wait behind it.
        try await clock.sleep(for: .milliseconds(50))
        try await clock.sleep(for: .milliseconds(10))
        hourLong.cancel()
        await #expect(throws: CancellationError.self) { try await hourLong.value }
    }

    @Test("cancelling a sleeping task ends its sleep with CancellationError")
    func cancellation() async throws {
        let entered = LockedState(false)
        let sleeping = Task { [clock] in
            entered.withLock { $0 = true }
            try await clock.sleep(for: .seconds(3600))
        }
        while !entered.withLock({ $0 }) { await Task.yield() }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        // Cancelled before it sleeps: at once.
        let cancelled = Task { [clock] in
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}
