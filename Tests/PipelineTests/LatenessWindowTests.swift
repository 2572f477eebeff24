import Testing
import Units

@testable import Pipeline

@Suite struct LatenessWindowTests {
    @Test("a window closes after its length: its late share counts late and dropped frames")
    func closesAfterItsLength() {
        var window = LatenessWindow()
        let start = MonotonicInstant(secondsSinceOrigin: 100)
        let frame = Duration.milliseconds(100)
        // Five frames in 0.4 s: one late, two dropped before the fourth.
        #expect(window.count(isLate: false, dropped: 0, at: start) == nil)
        #expect(window.count(isLate: true, dropped: 0, at: start.advanced(by: frame)) == nil)
        #expect(window.count(isLate: false, dropped: 0, at: start.advanced(by: frame * 2)) == nil)
        #expect(window.count(isLate: false, dropped: 2, at: start.advanced(by: frame * 3)) == nil)
        #expect(window.count(isLate: false, dropped: 0, at: start.advanced(by: frame * 4)) == nil)
        // The sixth, 0.5 s after the first, closes it: 3 of 8 frames missed their deadline.
        let closed = window.count(isLate: false, dropped: 0, at: start.advanced(by: frame * 5))
        #expect(closed == Share(fraction: 3.0 / 8.0))
        // The next window starts empty.
        let next = window.count(isLate: false, dropped: 0, at: start.advanced(by: frame * 10))
        #expect(next == .zero)
    }
}
