import Locking
import Synchronization

/// Samples pressure on an interval and publishes readings and level changes.
///
/// ``run()`` is the one owner of sampling and classification (sources are never read from two
/// tasks at once); any number of consumers subscribe with ``readings()`` and
/// ``levelChanges()``. Cancelling the task running `run()` ends it cleanly and finishes
/// every stream.
public final class PressureObserver: Sendable {
    /// Seconds between samples.
    public let interval: Double
    private let source: any SampleSource
    private let clock: any PressureClock
    private let triggers: PSITriggerMonitor?
    private struct State {
        var classifier: PressureClassifier
        var latest: PressureReading?
    }
    private let state: Mutex<State>
    private let readingBroadcast = Broadcast<PressureReading>()
    private let changeBroadcast = Broadcast<LevelChange>()

    /// An observer sampling `source` every `interval` seconds on `clock`, classified by
    /// `classifier`; with `triggers`, it also samples at once whenever a PSI trigger fires.
    public init(
        source: any SampleSource, classifier: PressureClassifier = PressureClassifier(),
        interval: Double = 1, clock: any PressureClock = MonotonicPressureClock(),
        triggers: PSITriggerMonitor? = nil
    ) {
        self.source = source
        self.clock = clock
        self.triggers = triggers
        self.interval = max(interval, 0.001)
        self.state = Mutex(State(classifier: classifier))
    }

    /// The most recent reading, `nil` before the first sample.
    public var latest: PressureReading? { state.withLock { $0.latest } }

    /// A new stream of every reading from now on; it finishes when `run()` ends.
    public func readings() -> AsyncStream<PressureReading> {
        readingBroadcast.subscribe(bufferingPolicy: .bufferingNewest(64))
    }

    /// A new stream of overall level changes from now on (the first reading counts as a change
    /// from nominal when it is not nominal); it finishes when `run()` ends.
    public func levelChanges() -> AsyncStream<LevelChange> {
        changeBroadcast.subscribe(bufferingPolicy: .bufferingNewest(64))
    }

    /// Takes one sample now, classifies and publishes it; `nil` when the source is exhausted.
    ///
    /// Sampling and classification happen under the observer's lock, so interval samples and
    /// trigger samples never overlap and stay in time order.
    @discardableResult
    public func sampleOnce() -> PressureReading? {
        let source = self.source
        let clock = self.clock
        let published = state.withLock { state in
            guard let sample = source.sample(at: clock.now()) else {
                return nil as (reading: PressureReading, change: LevelChange?)?
            }
            let previous = state.latest?.level ?? .nominal
            let reading = state.classifier.classify(sample)
            state.latest = reading
            let change =
                reading.level != previous
                ? LevelChange(from: previous, to: reading.level, reading: reading) : nil
            return (reading, change)
        }
        guard let published else { return nil }
        readingBroadcast.yield(published.reading)
        if let change = published.change { changeBroadcast.yield(change) }
        return published.reading
    }

    /// Samples every ``interval`` seconds until cancelled or the source is exhausted, then
    /// finishes every stream. Returns normally on cancellation.
    public func run() async throws {
        let triggered = triggers.map { monitor in
            Task { [weak self] in
                for await _ in monitor.events() { self?.sampleOnce() }
            }
        }
        defer {
            triggered?.cancel()
            triggers?.stop()
            finish()
        }
        var deadline = clock.now()
        while !Task.isCancelled {
            guard sampleOnce() != nil else { return }
            deadline += interval
            let now = clock.now()
            if deadline < now { deadline = now + interval }
            do {
                try await clock.sleep(until: deadline)
            } catch is CancellationError {
                return
            }
        }
    }

    private func finish() {
        readingBroadcast.close()
        changeBroadcast.close()
    }
}
