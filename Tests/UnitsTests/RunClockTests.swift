import Locking
import Testing
import Units

/// The virtual clock: time moves only while every participant waits, one participant runs at a
/// time, and the order depends only on the deadlines.
@Suite struct RunClockTests {
    private static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    /// Three participants ticking every 3, 5 and 7 ms for 100 ms, logging (time, name).
    private func ticks(on clock: VirtualRunClock) async throws -> [String] {
        let log = LockedState<[String]>([])
        let periods = [("a", 3), ("b", 5), ("c", 7)]
        let participants = periods.map { _ in clock.enroll() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for ((name, period), participant) in zip(periods, participants) {
                group.addTask {
                    try await participant.run {
                        for tick in 1...(100 / period) {
                            try await clock.sleep(
                                until: Self.start.advanced(by: .milliseconds(tick * period)))
                            let millisecond = clock.now.duration(since: Self.start)
                            log.withLock { $0.append("\(millisecond) \(name)") }
                            // Work that takes real time does not move virtual time.
                            for _ in 0..<(1000 * period) { _ = clock.workingParticipants }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return log.withLock { $0 }
    }

    @Test("participants wake in deadline order, ties in participant order, every run alike")
    func deterministicOrder() async throws {
        let first = try await ticks(on: VirtualRunClock(start: Self.start))
        #expect(first.count == 33 + 20 + 14)
        #expect(
            first.prefix(4) == [
                "0.003 seconds a", "0.005 seconds b", "0.006 seconds a",
                "0.007 seconds c",
            ])
        // 15 ms: a (every 3) before b (every 5), by participant order.
        let fifteen = first.filter { $0.hasPrefix("0.015 ") }
        #expect(fifteen == ["0.015 seconds a", "0.015 seconds b"])
        for _ in 0..<5 {
            #expect(try await ticks(on: VirtualRunClock(start: Self.start)) == first)
        }
    }

    @Test("the clock stands still while a participant works")
    func standsStillWhileWorking() async throws {
        let clock = VirtualRunClock(start: Self.start)
        let worker = clock.enroll()
        let sleeper = clock.enroll()
        async let slept: MonotonicInstant = sleeper.run {
            try await clock.sleep(for: .seconds(5))
            return clock.now
        }
        // The worker has not waited yet: the sleeper cannot be woken.
        #expect(clock.now == Self.start)
        worker.leave()
        #expect(try await slept == Self.start.advanced(by: .seconds(5)))
    }

    @Test("a cancelled sleeper throws and the others go on")
    func cancellation() async throws {
        let clock = VirtualRunClock(start: Self.start)
        let forever = clock.enroll()
        let brief = clock.enroll()
        let long = Task {
            try await forever.run { try await clock.sleep(for: .seconds(3600)) }
        }
        try await brief.run {
            try await clock.sleep(for: .seconds(1))
            // This participant works: the clock cannot jump to the other's hour.
            long.cancel()
            await #expect(throws: CancellationError.self) { try await long.value }
        }
        #expect(clock.now == Self.start.advanced(by: .seconds(1)))
        #expect(clock.workingParticipants == 0)
    }
}
