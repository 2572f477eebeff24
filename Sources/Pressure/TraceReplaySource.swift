import Locking
import Units

/// Replays a recorded trace, marked simulated with its temperature sensors' source set to
/// `replay`: sample after sample (``Pacing/perCall``), or as it was recorded in time
/// (``Pacing/recordedTimes``), which is what makes a run on a trace the same on an idle and a
/// busy machine.
public final class TraceReplaySource: SampleSource {
    /// How the trace advances.
    public enum Pacing: Sendable {
        /// Each call returns the next sample, with its own recorded time (`replay`).
        case perCall
        /// Each call returns the sample recorded at the time elapsed since the first call (the
        /// latest one not after it, give or take ``TraceReplaySource/dueTolerance``), with the
        /// caller's time; `nil` once the trace's time is over.
        case recordedTimes
    }

    /// How late a recorded sample may be and still count as due: a recorder samples on a
    /// nominal grid (every 0.5 s) and each sample lands a little after its instant, as does
    /// each replaying call. Counting samples up to 50 ms late as due makes a replay pick the
    /// same sample at the same grid instant on an idle and on a busy machine.
    public static let dueTolerance = Duration.milliseconds(50)

    private let samples: [PressureSample]
    private let pacing: Pacing
    private let position = LockedState<(next: Int, start: MonotonicInstant?)>((0, nil))

    /// A source replaying `trace` from its first sample.
    public init(trace: PressureTrace, pacing: Pacing = .perCall) {
        samples = trace.samples.map(Self.replayed)
        self.pacing = pacing
    }

    /// The next sample, or the one recorded at the elapsed time; `nil` at the end.
    public func sample(at time: MonotonicInstant) -> PressureSample? {
        position.withLock { position in
            switch pacing {
            case .perCall:
                guard position.next < samples.count else { return nil }
                defer { position.next += 1 }
                return samples[position.next]
            case .recordedTimes:
                let start = position.start ?? time
                position.start = start
                // The trace's own instant as far into it as the caller is into the replay.
                let elapsed = (samples.first?.time ?? .origin).advanced(
                    by: time.duration(since: start))
                guard let last = samples.last, elapsed <= last.time else { return nil }
                var index = position.next
                while index + 1 < samples.count
                    && samples[index + 1].time <= elapsed.advanced(by: Self.dueTolerance)
                {
                    index += 1
                }
                position.next = index
                var sample = samples[index]
                sample.time = time
                return sample
            }
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
