import Foundation
import Locking

/// Samples pressure on an interval and publishes readings and level changes.
///
/// ``run()`` samples on a dedicated thread, the one owner of sampling and classification
/// (sources are never read from two threads at once), which sleeps in the kernel between
/// samples: a sample costs one wake-up, not a task hop. Any number of consumers subscribe with
/// ``readings(bufferingPolicy:)`` and ``levelChanges()``. Cancelling the task running `run()`
/// wakes the thread at once, ends it and finishes every stream.
public final class PressureObserver: Sendable {
    /// Seconds between samples.
    public let interval: Double
    private let source: any SampleSource
    private let clock: any PressureClock
    private let triggers: [PSITrigger]
    private struct State {
        var classifier: PressureClassifier
        var latest: PressureReading?
    }
    private let state: LockedState<State>
    private let readingBroadcast = Broadcast<PressureReading>()
    private let changeBroadcast = Broadcast<LevelChange>()

    /// An observer sampling `source` every `interval` seconds on `clock`, classified by
    /// `classifier`; with `triggers` (see ``PSITrigger/arm(for:roots:)``), it also samples at
    /// once whenever one fires.
    public init(
        source: any SampleSource, classifier: PressureClassifier = PressureClassifier(),
        interval: Double = 1, clock: any PressureClock = MonotonicPressureClock(),
        triggers: [PSITrigger] = []
    ) {
        self.source = source
        self.clock = clock
        self.triggers = triggers
        self.interval = max(interval, 0.001)
        self.state = LockedState(State(classifier: classifier))
    }

    /// Classifies the samples from now on with `classifier` (a reloaded configuration); the
    /// levels start afresh, without the old classifier's hysteresis and trends.
    public func replaceClassifier(with classifier: PressureClassifier) {
        state.withLock { $0.classifier = classifier }
    }

    /// The most recent reading, `nil` before the first sample.
    public var latest: PressureReading? { state.withLock { $0.latest } }

    /// A new stream of every reading from now on, buffered by `bufferingPolicy` (by default
    /// the newest 64 are kept for a slow consumer); it finishes when `run()` ends.
    public func readings(
        bufferingPolicy: AsyncStream<PressureReading>.Continuation.BufferingPolicy =
            .bufferingNewest(64)
    ) -> AsyncStream<PressureReading> {
        readingBroadcast.subscribe(bufferingPolicy: bufferingPolicy)
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

    /// Samples every ``interval`` seconds, and at once when a trigger fires, until cancelled
    /// or the source is exhausted, then finishes every stream. Call it once.
    public func run() async {
        let waitSet = WaitSet(triggers: triggers)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                let thread = Thread { [self] in
                    sampleUntilStopped(on: waitSet)
                    ended.resume()
                }
                thread.name = "headroom-pressure"
                thread.start()
            }
        } onCancel: {
            waitSet.stop()
        }
        finish()
    }

    /// The sampling thread's loop: a sample, then a wait until the next deadline during
    /// which trigger firings are sampled too.
    private func sampleUntilStopped(on waitSet: WaitSet) {
        var deadline = clock.now()
        while !waitSet.isStopped, sampleOnce() != nil {
            deadline += interval
            let now = clock.now()
            if deadline < now { deadline = now + interval }
            waiting: while true {
                switch clock.wait(until: deadline, on: waitSet) {
                case .deadline: break waiting
                case .stopped: return
                case .triggered: guard sampleOnce() != nil else { return }
                }
            }
        }
    }

    private func finish() {
        readingBroadcast.close()
        changeBroadcast.close()
    }
}
