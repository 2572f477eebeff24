import Units

/// A backend that reads temperature sensors; tests use a fixture implementation.
///
/// Per-sensor failures are stale readings, never errors; only a source that cannot work
/// at all (no libsensors, no thermal class) throws.
public protocol TemperatureSource: Sendable {
    /// Reads every sensor the source knows, at `time` on the sampler's clock.
    ///
    /// - Throws: ``SourceUnavailable`` when the whole source cannot be used.
    func readTemperatures(at time: MonotonicInstant) throws(SourceUnavailable) -> [SensorReading]
}

/// A whole source that cannot be used on this host, and why; said once in the notes.
public struct SourceUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source that is unavailable.
    public var source: SensorSourceKind
    /// Why, such as `no /sys/class/thermal`.
    public var reason: String

    /// An unavailable `source`, because of `reason`.
    public init(source: SensorSourceKind, reason: String) {
        self.source = source
        self.reason = reason
    }

    /// `<source> unavailable: <reason>`.
    public var description: String { "\(source) unavailable: \(reason)" }
}
