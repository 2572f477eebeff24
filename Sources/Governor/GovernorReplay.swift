import Pressure

/// Feeds replayed readings to a governor and keeps the changes it makes: how `headroom replay`
/// shows what the governor would have done with a recorded trace.
public struct GovernorReplay: PressureReadingConsumer {
    /// The governor being exercised.
    public let governor: Governor
    /// Its changes, in order.
    public private(set) var changes: [GovernorChange] = []

    /// A replay through `governor`.
    public init(governor: Governor) {
        self.governor = governor
    }

    /// Passes the reading to the governor at the reading's time, keeping any change.
    public mutating func consume(_ reading: PressureReading) {
        if let change = governor.update(with: reading, at: reading.time) { changes.append(change) }
    }
}
