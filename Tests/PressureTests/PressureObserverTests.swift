import Synchronization
import Testing

@testable import Pressure

/// A sample source whose one temperature the test sets.
final class SteppedSource: SampleSource {
    let celsius = Mutex(50.0)
    func sample(at time: Double) -> PressureSample? {
        PressureSample(time: time, sensors: [sensor("cpu", celsius.withLock { $0 })])
    }
}

@Suite struct PressureObserverTests {
    private func waitForWaiter(_ clock: ManualPressureClock) async {
        while clock.waiterCount == 0 { await Task.yield() }
    }

    @Test func aStepAcrossAThresholdIsReportedWithinOneInterval() async throws {
        let clock = ManualPressureClock()
        let source = SteppedSource()
        let observer = PressureObserver(source: source, interval: 0.5, clock: clock)
        let changes = observer.levelChanges()
        let readings = observer.readings()
        let task = Task { await observer.run() }

        await waitForWaiter(clock)
        #expect(observer.latest?.level == .nominal)
        clock.advance(by: 0.2)
        source.celsius.withLock { $0 = 85 }
        let stepTime = clock.now()
        clock.advance(by: 0.3)

        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.from == .nominal)
        #expect(change.to == .serious)
        #expect(change.time - stepTime <= observer.interval)
        #expect(change.reading.factors.first?.sensor == "cpu")

        task.cancel()
        await task.value
        #expect(await iterator.next() == nil)
        var count = 0
        for await _ in readings { count += 1 }
        #expect(count == 2)
    }

    @Test func runEndsWhenAReplayIsExhaustedAndLateSubscribersFinishAtOnce() async throws {
        let trace = PressureTrace(
            samples: (0..<5).map {
                PressureSample(time: Double($0), sensors: [sensor("cpu", 70 + Double($0) * 5)])
            })
        let clock = ManualPressureClock()
        let observer = PressureObserver(
            source: TraceReplaySource(trace: trace), interval: 1, clock: clock)
        let readings = observer.readings()
        let task = Task { await observer.run() }

        var seen: [PressureLevel] = []
        for await reading in readings {
            #expect(reading.simulated)
            seen.append(reading.level)
            await waitForWaiter(clock)
            clock.advance(by: 1)
        }
        await task.value

        #expect(seen == [.fair, .fair, .serious, .serious, .serious])
        var late = observer.readings().makeAsyncIterator()
        #expect(await late.next() == nil)
    }
}
