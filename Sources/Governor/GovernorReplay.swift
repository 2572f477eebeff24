import Pressure

/// Feeds replayed readings to a governor and keeps the changes it makes: how `headroom replay`
/// shows what the governor would have done with a recorded trace.
public struct GovernorReplay: PressureReadingConsumer {
    /// The pipeline whose governing is exercised.
    public let pipeline: GovernedPipeline
    /// Its changes, in order.
    public private(set) var changes: [GovernorChange] = []

    /// A replay governing `pipeline`.
    public init(pipeline: GovernedPipeline) {
        self.pipeline = pipeline
    }

    /// Passes the reading to the pipeline's governor at the reading's time, keeping any change.
    public mutating func consume(_ reading: PressureReading) {
        if let change = pipeline.update(with: reading, at: reading.time) { changes.append(change) }
    }
}
