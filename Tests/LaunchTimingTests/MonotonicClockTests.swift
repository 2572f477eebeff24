import LaunchTiming
import Testing
import Units

struct MonotonicClockTests {
    @Test("the monotonic clock never goes backwards")
    func monotonic() {
        var previous = MonotonicClock.now()
        for _ in 0..<10_000 {
            let now = MonotonicClock.now()
            #expect(now >= previous)
            previous = now
        }
    }

    @Test("elapsed seconds are signed")
    func seconds() {
        let a = MonotonicInstant(nanoseconds: 1_000_000_000)
        let b = MonotonicInstant(nanoseconds: 3_500_000_000)
        #expect(b.seconds(since: a) == 2.5)
        #expect(a.seconds(since: b) == -2.5)
    }
}
