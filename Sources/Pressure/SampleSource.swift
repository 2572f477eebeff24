import Units

/// Something that produces whole samples: the live ``PressureSampler`` or a
/// ``TraceReplaySource``.
public protocol SampleSource: Sendable {
    /// The sample at `time`, or `nil` when the source is exhausted (end of a trace).
    func sample(at time: MonotonicInstant) -> PressureSample?
}
