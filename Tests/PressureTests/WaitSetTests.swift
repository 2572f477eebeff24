import Foundation
import Synchronization
import TestSupport
import Testing
import Units

@testable import Pressure

@Suite struct WaitSetTests {
    /// Runs `body` on a thread of its own (waits block) and hands back its result.
    private func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async
        -> Result
    {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test func aTimeoutWithNothingToReportReturnsNil() {
        #expect(WaitSet().wait(timeout: 0) == nil)
        #expect(WaitSet().wait(timeout: 0.001) == nil)
    }

    @Test func aNudgeWakesAWaiterWithoutStoppingIt() async {
        let waitSet = WaitSet()
        waitSet.nudge()
        // The nudge was kept until the wait: it returns at once although it has no timeout.
        #expect(await onThread { waitSet.wait(timeout: nil) } == nil)
        #expect(!waitSet.isStopped)
        #expect(waitSet.wait(timeout: 0) == nil)
    }

    @Test func stopWakesAWaiterBlockedWithoutATimeout() async {
        let waitSet = WaitSet()
        async let event = onThread { waitSet.wait(timeout: nil) }
        waitSet.stop()
        #expect(await event == .stopped)
        #expect(waitSet.wait(timeout: nil) == .stopped)
    }

    @Test func aMonotonicWaitEndsAtItsDeadlineOrWhenStopped() async {
        let clock = ContinuousRunClock()
        let waitSet = WaitSet()
        #expect(
            clock.wait(until: clock.now.advanced(by: .milliseconds(2)), on: waitSet) == .deadline)
        // An hour away: only the stop can end this wait.
        async let event = onThread {
            clock.wait(until: clock.now.advanced(by: .seconds(3600)), on: waitSet)
        }
        waitSet.stop()
        #expect(await event == .stopped)
    }

    @Test func aManualWaitEndsOnlyWhenTheClockReachesItsDeadline() async {
        let clock = ManualClock()
        let waitSet = WaitSet()
        async let event = onThread { clock.wait(until: instant(1), on: waitSet) }
        #expect(await waitUntil { clock.waiterCount > 0 })
        clock.advance(by: .seconds(0.5))
        #expect(clock.waiterCount == 1)
        clock.advance(by: .seconds(0.5))
        #expect(await event == .deadline)
        #expect(clock.waiterCount == 0)
    }

    @Test func aTriggerEpollCannotWaitOnIsLeftOutOfTheWait() async throws {
        // A fixture tree's trigger file is a regular file, which epoll refuses: the set waits
        // without it, and a nudge and a stop still end a wait (each exactly one).
        let tree = try FixtureTree()
        try tree.write("pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0")
        let trigger = try PSITrigger(
            resource: .cpu, stallMicroseconds: 100_000, windowMicroseconds: 2_000_000,
            roots: SystemRoots(procfs: tree.root))
        let waitSet = WaitSet(triggers: [trigger])
        let returns = Mutex(0)
        async let ended = onThread {
            while waitSet.wait(timeout: nil) != .stopped { returns.withLock { $0 += 1 } }
            return returns.withLock { $0 }
        }
        // Only the nudge ends the first wait; only the stop the second.
        waitSet.nudge()
        #expect(await waitUntil { returns.withLock { $0 } == 1 })
        waitSet.stop()
        #expect(await ended == 1)
    }
}
