import Locking

/// Replays a recorded trace: each call returns the next sample, marked simulated with its
/// temperature sensors' source set to `replay`.
public final class TraceReplaySource: SampleSource {
    private let samples: [PressureSample]
    private let position = LockedState(0)

    /// A source replaying `trace` from its first sample.
    public init(trace: PressureTrace) {
        samples = trace.samples.map(Self.replayed)
    }

    /// The next sample (its own recorded time, not `time`), or `nil` at the end.
    public func sample(at time: Double) -> PressureSample? {
        position.withLock { position in
            guard position < samples.count else { return nil }
            defer { position += 1 }
            return samples[position]
        }
    }

    private static func replayed(_ sample: PressureSample) -> PressureSample {
        var copy = sample
        copy.isSimulated = true
        copy.sensors = sample.sensors.map { sensor in
            var replayed = sensor
            if sensor.source != .model { replayed.source = .replay }
            return replayed
        }
        return copy
    }
}
