import Locking
import Units

/// Samples pressure on an interval and publishes readings and level changes.
///
/// Sampling is adaptive: while a reading is far from every threshold (not
/// ``PressureReading/isWithinReach``) the next sample comes after the configuration's slow
/// interval (1 s by default) instead of ``interval``; as soon as a reading is within reach the
/// observer samples at ``interval`` again. A PSI trigger samples at once in either pace.
///
/// On a clock a thread can wait on (real time, ``ThreadWaitingClock``), ``run(onReading:settle:)``
/// samples on a dedicated thread, the one owner of sampling and classification (sources are
/// never read from two threads at once), which sleeps in the kernel between samples: a sample
/// costs one wake-up, not a task hop. On any other run clock (virtual time) it samples in the
/// calling task, waiting on the clock, and PSI triggers are not armed (virtual time has no
/// kernel stalls). Any number of consumers subscribe with ``readings(bufferingPolicy:)`` and
/// ``levelChanges()``. Cancelling the task running `run` ends sampling at once and finishes
/// every stream.
///
/// `serve` and `run` sample through it alike: `serve` hands each reading to the host service,
/// `run` to the host service and its own pipeline's governor.
public final class PressureObserver: Sendable {
    /// The time between samples (within reach of a threshold).
    public let interval: Duration
    private let source: any SampleSource
    private let clock: any RunClock
    private let triggers: [PSITrigger]
    private struct State {
        var classifier: PressureClassifier
        var latest: PressureReading?
        /// When ``thermalHeadroom(forecastSeconds:)`` last answered, on the observer's clock.
        var lastHeadroomAnswer: MonotonicInstant?
    }
    /// The least time between two answers of ``thermalHeadroom(forecastSeconds:)``.
    public static let headroomRequestSpacing = Duration.milliseconds(500)
    private let state: LockedState<State>
    private let readingBroadcast = Broadcast<PressureReading>()
    private let changeBroadcast = Broadcast<LevelChange>()

    /// An observer sampling `source` every `interval` on `clock`, classified by
    /// `classifier`; with `triggers` (see ``PSITrigger/arm(for:roots:)``) and a clock a thread
    /// waits on, it also samples at once whenever one fires.
    public init(
        source: any SampleSource, classifier: PressureClassifier = PressureClassifier(),
        interval: Duration = .seconds(1), clock: any RunClock,
        triggers: [PSITrigger] = []
    ) {
        self.source = source
        self.clock = clock
        self.triggers = triggers
        self.interval = max(interval, .milliseconds(1))
        self.state = LockedState(State(classifier: classifier))
    }

    /// Classifies the samples from now on with `classifier` (a reloaded configuration); the
    /// levels start afresh, without the old classifier's hysteresis and trends.
    public func replaceClassifier(with classifier: PressureClassifier) {
        state.withLock { $0.classifier = classifier }
    }

    /// The most recent reading, `nil` before the first sample.
    public var latest: PressureReading? { state.withLock { $0.latest } }

    /// Thermal headroom `forecastSeconds` (0–60) from now, with the meaning and the manners
    /// of Android's `PowerManager.getThermalHeadroom`: 1.0 at the serious threshold, 0 at
    /// 30 °C below it (see ``PressureConfiguration/HeadroomRules``), the most constrained
    /// sensor's. NaN when there is no live temperature sensor, when a forecast has fewer than
    /// 3 trend points 1 s apart, for a horizon outside 0–60 s, and when asked again within
    /// 0.5 s of the last answer.
    public func thermalHeadroom(forecastSeconds: Double) -> Double {
        let now = clock.now
        return state.withLock { state in
            guard (0...60).contains(forecastSeconds) else { return .nan }
            if let last = state.lastHeadroomAnswer,
                now.duration(since: last) < Self.headroomRequestSpacing
            {
                return .nan
            }
            state.lastHeadroomAnswer = now
            return state.classifier.headroom(
                forecastSeconds: forecastSeconds, at: now.secondsSinceOrigin)
        }
    }

    /// The time to the next sample after `reading`: ``interval`` within reach of a threshold,
    /// the configuration's slow interval (never shorter than ``interval``) otherwise.
    public func pace(after reading: PressureReading) -> Duration {
        guard !reading.isWithinReach else { return interval }
        return max(interval, state.withLock { $0.classifier.configuration.sampling.slowInterval })
    }

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
            guard let sample = source.sample(at: clock.now) else {
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

    /// Samples every ``interval``, and at once when a trigger fires, until cancelled
    /// or the source is exhausted, then finishes every stream. Call it once.
    ///
    /// `onReading`, when given, is handed every reading as it is taken (after the streams):
    /// on the sampling thread on real time, so a consumer that is quick and never blocks — the
    /// service, the exporter, a governor — takes it without a task wake-up per sample.
    /// `settle` is awaited after it on a clock no thread waits on (virtual time): what the
    /// reading set going (capture stopped, say) is done before time moves on. On real time it
    /// is not called: the consequences happen as they come.
    public func run(
        onReading: (@Sendable (PressureReading) -> Void)? = nil,
        settle: @Sendable () async -> Void = {}
    ) async {
        let onReading = onReading ?? { _ in }
        if let threadClock = clock as? any ThreadWaitingClock {
            await sampleOnThread(clock: threadClock, onReading: onReading)
        } else {
            await sampleInTask(onReading: onReading, settle: settle)
        }
        finish()
    }

    /// Samples on a thread of its own, waiting on `clock` and the triggers.
    private func sampleOnThread(
        clock: any ThreadWaitingClock, onReading: @escaping @Sendable (PressureReading) -> Void
    ) async {
        let waitSet = WaitSet(triggers: triggers)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                DetachedThread.start(name: "headroom-pressure") { [self] in
                    sampleUntilStopped(on: waitSet, clock: clock, onReading: onReading)
                    ended.resume()
                }
            }
        } onCancel: {
            waitSet.stop()
        }
    }

    /// Samples in the calling task, waiting on the run clock between samples.
    private func sampleInTask(
        onReading: @Sendable (PressureReading) -> Void, settle: @Sendable () async -> Void
    ) async {
        var deadline = clock.now
        while !Task.isCancelled, let reading = sampleOnce() {
            onReading(reading)
            await settle()
            deadline = deadline.advanced(by: pace(after: reading))
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
        }
    }

    /// The sampling thread's loop: a sample, then a wait until the next deadline (its pace
    /// set by the reading) during which trigger firings are sampled too.
    private func sampleUntilStopped(
        on waitSet: WaitSet, clock: any ThreadWaitingClock,
        onReading: @Sendable (PressureReading) -> Void
    ) {
        guard !waitSet.isStopped, let first = sampleOnce() else { return }
        onReading(first)
        var deadline = clock.now.advanced(by: pace(after: first))
        while true {
            switch clock.wait(until: deadline, on: waitSet) {
            case .stopped:
                return
            case .deadline:
                guard let reading = sampleOnce() else { return }
                onReading(reading)
                let step = pace(after: reading)
                deadline = deadline.advanced(by: step)
                let now = clock.now
                if deadline < now { deadline = now.advanced(by: step) }
            case .triggered:
                // A trigger that finds a threshold within reach brings the next sample closer.
                guard let reading = sampleOnce() else { return }
                onReading(reading)
                deadline = min(deadline, clock.now.advanced(by: pace(after: reading)))
            }
        }
    }

    private func finish() {
        readingBroadcast.close()
        changeBroadcast.close()
    }
}
