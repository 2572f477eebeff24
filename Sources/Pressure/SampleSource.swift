import Units

/// Something that produces whole samples: the live ``PressureSampler`` or a
/// ``TraceReplaySource``.
public protocol SampleSource: Sendable {
    /// The sample at `time`, or `nil` when the source is exhausted (end of a trace).
    func sample(at time: MonotonicInstant) -> PressureSample?

    /// Whether the sample at `time` would be the last one this source gave, again at the new
    /// time (every one of its sources' results holds): asked before ``sample(at:)`` at that
    /// time, a true answer stands for the sample, which is then not taken. False by default,
    /// for a source that cannot tell or that must see every sample (a recorder).
    func repeatsLastSample(at time: MonotonicInstant) -> Bool
}

extension SampleSource {
    /// False: the source is sampled every time.
    public func repeatsLastSample(at time: MonotonicInstant) -> Bool { false }
}
