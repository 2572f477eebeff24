import Governor
import Pressure
import Units

/// Feeds replayed readings to a governed pipeline and keeps the changes it makes: how
/// `headroom replay` shows what the governor would have done with a recorded trace. Its
/// service runs on a ``ManualRunClock``, moved to each reading's time before it is fed.
public struct GovernorReplay: PressureReadingConsumer {
    /// The pipeline whose governing is exercised.
    public let pipeline: GovernedPipeline
    /// The clock of the pipeline's service, moved to each reading's time.
    public let clock: ManualRunClock
    /// Its changes, in order.
    public private(set) var changes: [GovernorChange] = []

    /// A replay governing `pipeline`, whose service runs on `clock`.
    public init(pipeline: GovernedPipeline, clock: ManualRunClock) {
        self.pipeline = pipeline
        self.clock = clock
    }

    /// Passes the reading to the pipeline's governor at the reading's time, keeping any change.
    public mutating func consume(_ reading: PressureReading) {
        clock.advance(to: reading.time)
        if let change = pipeline.update(with: reading) { changes.append(change) }
    }
}
