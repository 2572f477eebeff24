/// Something that produces whole samples: the live ``PressureSampler`` or a
/// ``TraceReplaySource``.
public protocol SampleSource: Sendable {
    /// The sample at `time` seconds, or `nil` when the source is exhausted (end of a trace).
    func sample(at time: Double) -> PressureSample?
}
