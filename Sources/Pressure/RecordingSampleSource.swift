import Locking
import Units

/// Passes another source's samples through and keeps them, so what a run saw can be written
/// as a ``PressureTrace`` and replayed later (`headroom run --record-pressure`, then
/// `--trace`).
public final class RecordingSampleSource: SampleSource {
    private let source: any SampleSource
    private let samples = LockedState<[PressureSample]>([])

    /// Records what `source` returns.
    public init(_ source: any SampleSource) {
        self.source = source
    }

    /// The wrapped source's sample, kept.
    public func sample(at time: MonotonicInstant) -> PressureSample? {
        guard let sample = source.sample(at: time) else { return nil }
        samples.withLock { $0.append(sample) }
        return sample
    }

    /// Everything sampled so far, with times from the first sample (0) in microseconds.
    public var trace: PressureTrace {
        let kept = samples.withLock { $0 }
        let start = kept.first?.time ?? .origin
        return PressureTrace(
            samples: kept.map { sample in
                var copy = sample
                let seconds = sample.time.duration(since: start).seconds
                copy.time = MonotonicInstant(secondsSinceOrigin: (seconds * 1e6).rounded() / 1e6)
                return copy
            })
    }
}
