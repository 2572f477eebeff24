import Synchronization
import TestSupport
import Testing
import Units

@testable import Pressure

/// A sample source whose one temperature the test sets.
final class SteppedSource: SampleSource {
    let celsius = Mutex(50.0)
    func sample(at time: MonotonicInstant) -> PressureSample? {
        PressureSample(time: time, sensors: [sensor("cpu", celsius.withLock { $0 })])
    }
}

@Suite struct PressureObserverTests {
    private func waitForWaiter(_ clock: ManualClock) async {
        #expect(await waitUntil { clock.waiterCount > 0 })
    }

    @Test func aStepAcrossAThresholdIsReportedWithinOneInterval() async throws {
        let clock = ManualClock()
        let source = SteppedSource()
        // 72 °C is fair (H = 80): within reach, so the observer samples at its own interval.
        source.celsius.withLock { $0 = 72 }
        let observer = PressureObserver(source: source, interval: .seconds(0.5), clock: clock)
        let changes = observer.levelChanges()
        let readings = observer.readings()
        let task = Task { await observer.run() }

        await waitForWaiter(clock)
        #expect(observer.latest?.level == .fair)
        var iterator = changes.makeAsyncIterator()
        #expect(try #require(await iterator.next()).to == .fair)
        clock.advance(by: .seconds(0.2))
        source.celsius.withLock { $0 = 85 }
        let stepTime = clock.now
        clock.advance(by: .seconds(0.3))

        let change = try #require(await iterator.next())
        #expect(change.from == .fair)
        #expect(change.to == .serious)
        #expect(change.time.duration(since: stepTime) <= observer.interval)
        #expect(change.reading.factors.first?.sensor == "cpu")

        task.cancel()
        await task.value
        #expect(await iterator.next() == nil)
        var count = 0
        for await _ in readings { count += 1 }
        #expect(count == 2)
    }

    /// An observer replaying five samples, 70 °C to 90 °C, one a second on `clock`.
    private static func replayingFiveSamples(on clock: ManualClock) -> PressureObserver {
        let trace = PressureTrace(
            samples: (0..<5).map {
                PressureSample(
                    time: instant(Double($0)), sensors: [sensor("cpu", 70 + Double($0) * 5)])
            })
        return PressureObserver(
            source: TraceReplaySource(trace: trace), interval: .seconds(1), clock: clock)
    }

    @Test func runEndsWhenAReplayIsExhaustedAndLateSubscribersFinishAtOnce() async throws {
        let clock = ManualClock()
        let observer = Self.replayingFiveSamples(on: clock)
        let readings = observer.readings()
        let task = Task { await observer.run() }

        var seen: [PressureLevel] = []
        for await reading in readings {
            #expect(reading.simulated)
            seen.append(reading.level)
            await waitForWaiter(clock)
            clock.advance(by: .seconds(1))
        }
        await task.value

        #expect(seen == [.fair, .fair, .serious, .serious, .serious])
        var late = observer.readings().makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test func onReadingIsHandedEveryReadingOnTheSamplingThreadInOrder() async throws {
        let clock = ManualClock()
        let observer = Self.replayingFiveSamples(on: clock)
        let handed = Mutex<[MonotonicInstant]>([])
        let task = Task {
            await observer.run(onReading: { reading in
                handed.withLock { $0.append(reading.time) }
            })
        }
        // Each reading first, then the wait for the next: a waiter seen before the reading
        // could be the last one, still leaving, and the clock would move twice for one sample.
        for count in 1...5 {
            #expect(await waitUntil { handed.withLock { $0.count } == count })
            await waitForWaiter(clock)
            clock.advance(by: .seconds(1))
        }
        await task.value
        #expect(handed.withLock { $0 } == [0, 1, 2, 3, 4].map(instant))
    }

    /// Waits until the observer has published a reading taken at `time` or later.
    private func waitForReadings(_ observer: PressureObserver, time: Double) async {
        #expect(await waitUntil { observer.latest.map { $0.time >= instant(time) } ?? false })
    }

    @Test func farFromEveryThresholdItSamplesOncePerSlowIntervalAndReturnsAtOnce() async throws {
        let clock = ManualClock()
        let source = SteppedSource()  // 50 °C: headroom 0, far from everything
        let observer = PressureObserver(source: source, interval: .seconds(0.1), clock: clock)
        let task = Task { await observer.run() }
        await waitForWaiter(clock)
        let first = try #require(observer.latest)
        #expect(!first.isWithinReach)
        #expect(observer.pace(after: first) == .seconds(1))

        // Half a slow interval: no sample.
        clock.advance(by: .seconds(0.5))
        await Task.yield()
        #expect(observer.latest?.time == .origin)
        // A jump from far away (to critical) is seen within one slow interval.
        source.celsius.withLock { $0 = 96 }
        clock.advance(by: .seconds(0.5))
        await waitForReadings(observer, time: 1)
        #expect(observer.latest?.level == .critical)
        #expect(observer.latest?.isWithinReach == true)
        // Within reach again: the configured interval.
        await waitForWaiter(clock)
        clock.advance(by: .seconds(0.1))
        await waitForReadings(observer, time: 1.1)
        #expect(abs((observer.latest?.time.secondsSinceOrigin ?? 0) - 1.1) < 1e-9)
        task.cancel()
        await task.value
    }

    @Test func thermalHeadroomHasAndroidsMeaningAndManners() async throws {
        let clock = ManualClock()
        let source = SteppedSource()
        source.celsius.withLock { $0 = 65 }
        let observer = PressureObserver(source: source, interval: .seconds(1), clock: clock)
        let task = Task { await observer.run() }
        await waitForWaiter(clock)
        // Now: (65 − (80 − 30)) / 30 = 0.5. The forecast needs 3 points 1 s apart.
        #expect(observer.thermalHeadroom(forecastSeconds: 0) == 0.5)
        clock.advance(by: .seconds(0.4))
        #expect(observer.thermalHeadroom(forecastSeconds: 0).isNaN, "asked again within 0.5 s")
        clock.advance(by: .seconds(0.2))
        #expect(observer.thermalHeadroom(forecastSeconds: 10).isNaN, "one trend point")
        for second in 1...2 {
            await waitForWaiter(clock)
            source.celsius.withLock { $0 = 65 + 3 * Double(second) }
            clock.advance(by: instant(Double(second)).duration(since: clock.now))
            await waitForReadings(observer, time: Double(second))
        }
        clock.advance(by: .seconds(0.5))
        // +3 °C/s: from 71 °C at 2 s, 10 s past 2.5 s is 71 + 3 × 10.5 = 102.5 °C.
        let forecast = observer.thermalHeadroom(forecastSeconds: 10)
        #expect(abs(forecast - (102.5 - 50) / 30) < 1e-9)
        clock.advance(by: .seconds(0.5))
        #expect(observer.thermalHeadroom(forecastSeconds: 61).isNaN, "beyond Android's 60 s")
        task.cancel()
        await task.value
    }
}
