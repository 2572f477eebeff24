import Units

/// The instant `seconds` after the clock's origin: tests count time in seconds from zero, as a
/// ``ManualClock`` and a replayed trace do.
public func instant(_ seconds: Double) -> MonotonicInstant {
    MonotonicInstant(secondsSinceOrigin: seconds)
}
