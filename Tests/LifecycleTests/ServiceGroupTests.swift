import Lifecycle
import Locking
import TestSupport
import Testing
import Units

/// A group of services: who ends it, what a failure or cancellation does, and time on a
/// virtual clock.
struct ServiceGroupTests {
    struct Failure: Error, Equatable {}

    @Test("the first service that ends the group cancels the others, which all return")
    func firstEndEndsTheGroup() async throws {
        let returned = LockedState<[String]>([])
        let clock = VirtualRunClock()
        let group = ServiceGroup(
            [
                Service("timer", ending: .endsGroup) {
                    try await clock.sleep(for: .seconds(5))
                    returned.withLock { $0.append("timer") }
                },
                Service("loop", ending: .runsUntilCancelled) {
                    defer { returned.withLock { $0.append("loop") } }
                    while true { try await clock.sleep(for: .seconds(1)) }
                },
                .holding("server") { returned.withLock { $0.append("server") } },
            ], on: clock)
        let start = clock.now
        #expect(try await group.run() == .finished)
        #expect(Set(returned.withLock { $0 }) == ["timer", "loop", "server"])
        #expect(clock.now == start.advanced(by: .seconds(5)))
    }

    @Test("a failure is the group's, after every service has returned, and halts time there")
    func failureEndsTheGroup() async throws {
        let clock = VirtualRunClock()
        let start = clock.now
        let closed = LockedState(false)
        let group = ServiceGroup(
            [
                Service("fails", ending: .runsUntilCancelled) {
                    try await clock.sleep(for: .seconds(2))
                    throw Failure()
                },
                Service("timer", ending: .endsGroup) { try await clock.sleep(for: .seconds(60)) },
                .holding("server") { closed.withLock { $0 = true } },
            ], on: clock)
        await #expect(throws: Failure.self) { try await group.run() }
        #expect(closed.withLock { $0 })
        #expect(clock.now == start.advanced(by: .seconds(2)))
    }

    @Test("a service that throws CancellationError on its way out is no failure")
    func cancellationOnTheWayOutIsNoFailure() async throws {
        let group = ServiceGroup(
            [
                Service("watchdog", ending: .runsUntilCancelled, isOnClock: false) {
                    while true { try await Task.sleep(for: .seconds(3600)) }
                },
                Service("trace", ending: .endsGroup, isOnClock: false) {},
            ], on: ContinuousRunClock())
        #expect(try await group.run() == .finished)
    }

    @Test("cancelling the group's task ends it as cancelled")
    func cancellation() async throws {
        let started = LockedState(false)
        let task = Task {
            try await ServiceGroup(
                [
                    Service("server", ending: .runsUntilCancelled, isOnClock: false) {
                        started.withLock { $0 = true }
                        await untilCancelled()
                    }
                ], on: ContinuousRunClock()
            ).run()
        }
        #expect(await waitUntil { started.withLock { $0 } })
        task.cancel()
        #expect(try await task.value == .cancelled)
    }

    @Test("untilCancelled returns at once in a task already cancelled")
    func alreadyCancelled() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await untilCancelled()
            return Task.isCancelled
        }
        #expect(await task.value)
    }

    @Test(
        "a writer's thread is stopped only once the others have returned, and takes all they gave it",
        arguments: [false, true])
    func writerStopsAfterOthers(cancelled: Bool) async throws {
        let queue = BoundedQueue<Int>(limit: 1000)
        let writing = ThreadedWork(
            "writer",
            work: {
                var taken: [Int] = []
                while let value = queue.take() { taken.append(value) }
                return taken
            }, stop: queue.close)
        // Cancelled, on real time (a virtual clock would reach the timer's end at once).
        let clock: any RunClock = cancelled ? ContinuousRunClock() : VirtualRunClock()
        let produced = LockedState(0)
        let group = ServiceGroup(
            [
                writing.service,
                // Gives the writer five values, one a period, and its last on the way out.
                Service("producer", ending: .runsUntilCancelled) {
                    defer { #expect(queue.offer(-1)) }
                    for next in 0..<5 {
                        #expect(queue.offer(next))
                        produced.withLock { $0 += 1 }
                        try await clock.sleep(for: .milliseconds(cancelled ? 10 : 1000))
                    }
                    try await clock.sleep(for: .seconds(3600))
                },
                Service("timer", ending: .endsGroup) {
                    try await clock.sleep(for: .milliseconds(cancelled ? 3_600_000 : 3500))
                },
            ], on: clock)
        let task = Task { try await group.run() }
        if cancelled {
            #expect(await waitUntil { produced.withLock { $0 } >= 3 })
            task.cancel()
        }
        #expect(try await task.value == (cancelled ? .cancelled : .finished))
        let taken = await writing.finish()
        let count = produced.withLock { $0 }
        #expect(taken == Array(0..<count) + [-1])
        if !cancelled { #expect(count == 4) }
    }

    @Test("threaded work that never ran as a service runs when finished")
    func finishedWithoutGroup() async {
        let writing = ThreadedWork("writer", work: { 42 }, stop: {})
        #expect(await writing.finish() == 42)
        #expect(writing.finishWaiting() == 42)
    }
}
