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
        switch sampleAndPublish(copyingRepeats: true) {
        case .changed(let reading, _)?, .repeated(_, let reading?)?: return reading
        case .repeated(_, nil)?, nil: return nil
        }
    }

    /// What one sample brought.
    private enum Sampled {
        /// A reading unlike the last, and the level change it made.
        case changed(PressureReading, LevelChange?)
        /// The last reading again at this time (``PressureClassifier/repeatsPrevious(_:)``),
        /// moved there in ``latest`` rather than copied; with the reading when it was asked for.
        case repeated(MonotonicInstant, PressureReading?)
    }

    /// Takes one sample, classifies it and hands it to the streams; a repeated reading is
    /// copied for them, or when `copyingRepeats`. `nil` when the source is exhausted.
    private func sampleAndPublish(copyingRepeats: Bool) -> Sampled? {
        let source = self.source
        let clock = self.clock
        let copiesRepeats = copyingRepeats || readingBroadcast.hasSubscribers
        let sampled = state.withLock { state -> Sampled? in
            let time = clock.now
            // A source that can tell it would give its last sample again is not sampled.
            if state.latest != nil,
                state.classifier.repeatsPrevious(
                    at: time, unchanged: { source.repeatsLastSample(at: time) })
            {
                state.latest!.time = time
                return .repeated(time, copiesRepeats ? state.latest : nil)
            }
            guard let sample = source.sample(at: time) else { return nil }
            if state.latest != nil, state.classifier.repeatsPrevious(sample) {
                // In place: assigning a copy would retain and release every array of both.
                state.latest!.time = sample.time
                return .repeated(sample.time, copiesRepeats ? state.latest : nil)
            }
            let previous = state.latest?.level ?? .nominal
            let reading = state.classifier.classifyChanged(sample)
            state.latest = reading
            let change =
                reading.level != previous
                ? LevelChange(from: previous, to: reading.level, reading: reading) : nil
            return .changed(reading, change)
        }
        switch sampled {
        case .changed(let reading, let change):
            readingBroadcast.yield(reading)
            if let change { changeBroadcast.yield(change) }
        case .repeated(_, let reading?):
            readingBroadcast.yield(reading)
        case .repeated(_, nil), nil:
            break
        }
        return sampled
    }

    /// Where ``run(onReading:onRepeat:settle:)`` hands each reading.
    private struct Consumer {
        let onReading: @Sendable (PressureReading) -> Void
        let onRepeat: (@Sendable (MonotonicInstant) -> Void)?

        /// Hands `sampled` on: its time alone for a repeat when the consumer takes that.
        func take(_ sampled: Sampled) {
            switch sampled {
            case .changed(let reading, _):
                onReading(reading)
            case .repeated(let time, let reading):
                if let onRepeat {
                    onRepeat(time)
                } else if let reading {
                    onReading(reading)
                }
            }
        }
    }

    /// Samples every ``interval``, and at once when a trigger fires, until cancelled
    /// or the source is exhausted, then finishes every stream. Call it once.
    ///
    /// `onReading`, when given, is handed every reading as it is taken (after the streams):
    /// on the sampling thread on real time, so a consumer that is quick and never blocks — the
    /// service, the exporter, a governor — takes it without a task wake-up per sample.
    /// `onRepeat`, when given, is handed instead the time of a reading that is the last one
    /// again at a new time (``PressureClassifier/repeatsPrevious(_:)``, most samples at 10 Hz),
    /// for a consumer that holds the last reading and moves it to that time rather than take
    /// a copy. `settle` is awaited after each on a clock no thread waits on (virtual time):
    /// what the reading set going (capture stopped, say) is done before time moves on. On
    /// real time it is not called: the consequences happen as they come.
    public func run(
        onReading: (@Sendable (PressureReading) -> Void)? = nil,
        onRepeat: (@Sendable (MonotonicInstant) -> Void)? = nil,
        settle: @Sendable () async -> Void = {}
    ) async {
        let consumer = Consumer(onReading: onReading ?? { _ in }, onRepeat: onRepeat)
        if let threadClock = clock as? any ThreadWaitingClock {
            await sampleOnThread(clock: threadClock, consumer: consumer)
        } else {
            await sampleInTask(consumer: consumer, settle: settle)
        }
        finish()
    }

    /// Samples on a thread of its own, waiting on `clock` and the triggers.
    private func sampleOnThread(clock: any ThreadWaitingClock, consumer: Consumer) async {
        let waitSet = WaitSet(triggers: triggers)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                DetachedThread.start(name: "headroom-pressure") { [self] in
                    sampleUntilStopped(on: waitSet, clock: clock, consumer: consumer)
                    ended.resume()
                }
            }
        } onCancel: {
            waitSet.stop()
        }
    }

    /// Takes one sample and hands it to the streams and `consumer`; the time to the next
    /// sample (after a repeat, `step` again: the same reading sets the same pace). `nil` when
    /// the source is exhausted.
    private func sampleAndHandOn(to consumer: Consumer, step: Duration?) -> Duration? {
        guard let sampled = sampleAndPublish(copyingRepeats: consumer.onRepeat == nil) else {
            return nil
        }
        consumer.take(sampled)
        switch sampled {
        case .changed(let reading, _): return pace(after: reading)
        case .repeated(_, let reading):
            if let step { return step }
            return (reading ?? latest).map(pace(after:)) ?? interval
        }
    }

    /// Samples in the calling task, waiting on the run clock between samples.
    private func sampleInTask(consumer: Consumer, settle: @Sendable () async -> Void) async {
        var deadline = clock.now
        var step: Duration?
        while !Task.isCancelled, let next = sampleAndHandOn(to: consumer, step: step) {
            step = next
            await settle()
            deadline = deadline.advanced(by: next)
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
        on waitSet: WaitSet, clock: any ThreadWaitingClock, consumer: Consumer
    ) {
        guard !waitSet.isStopped, var step = sampleAndHandOn(to: consumer, step: nil) else {
            return
        }
        var deadline = clock.now.advanced(by: step)
        while true {
            switch clock.wait(until: deadline, on: waitSet) {
            case .stopped:
                return
            case .deadline:
                guard let next = sampleAndHandOn(to: consumer, step: step) else { return }
                step = next
                deadline = deadline.advanced(by: step)
                let now = clock.now
                if deadline < now { deadline = now.advanced(by: step) }
            case .triggered:
                // A trigger that finds a threshold within reach brings the next sample closer.
                guard let next = sampleAndHandOn(to: consumer, step: step) else { return }
                step = next
                deadline = min(deadline, clock.now.advanced(by: step))
            }
        }
    }

    private func finish() {
        readingBroadcast.close()
        changeBroadcast.close()
    }
}
