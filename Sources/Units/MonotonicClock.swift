#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds since an arbitrary origin.
///
/// Instants are only comparable within one boot; they never go backwards and are unaffected by
/// wall-clock changes, which is what launch phases and benchmarks need.
public struct MonotonicInstant: Hashable, Comparable, Sendable {
    /// Nanoseconds since the clock's origin (usually the boot).
    public var nanoseconds: UInt64

    /// Creates an instant from nanoseconds since the clock's origin.
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The elapsed time from `earlier` to this instant, in seconds; negative when `earlier` is later.
    public func seconds(since earlier: MonotonicInstant) -> Double {
        Double(Int64(bitPattern: nanoseconds &- earlier.nanoseconds)) / 1e9
    }

    /// Orders instants by time.
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant `duration` later (earlier when negative).
    public func advanced(by duration: Duration) -> MonotonicInstant {
        MonotonicInstant(
            nanoseconds: nanoseconds &+ UInt64(bitPattern: duration.wholeNanoseconds))
    }

    /// The time from `earlier` to this instant; negative when `earlier` is later.
    public func duration(since earlier: MonotonicInstant) -> Duration {
        .nanoseconds(Int64(bitPattern: nanoseconds &- earlier.nanoseconds))
    }
}

/// The monotonic clock: one `clock_gettime(CLOCK_MONOTONIC)` call per reading, no allocation.
public enum MonotonicClock {
    /// The current instant.
    @inline(__always)
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(
            nanoseconds: UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec))
    }
}

extension MonotonicInstant {
    /// The instant `seconds` after the clock's origin (not before it: negative is the origin),
    /// for clocks that count seconds as a number, such as a replayed trace's.
    public init(secondsSinceOrigin seconds: Double) {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), Self.representableSeconds.upperBound)
        self.init(nanoseconds: UInt64((bounded * 1e9).rounded()))
    }

    /// The seconds since its origin an instant can be: about 570 years (kept a little inside
    /// `UInt64`'s nanoseconds); beyond, ``init(secondsSinceOrigin:)`` saturates.
    public static let representableSeconds: ClosedRange<Double> = 0...1.8e10

    /// The seconds since the clock's origin, as a number.
    public var secondsSinceOrigin: Double { Double(nanoseconds) / 1e9 }
}

extension MonotonicInstant {
    /// The clock's origin: nanosecond zero (a replayed trace's start, a manual clock's start).
    public static let origin = MonotonicInstant(nanoseconds: 0)
}

extension MonotonicInstant: Codable {
    /// Decodes seconds since the clock's origin (a trace's `time`): finite and not negative.
    public init(from decoder: any Decoder) throws {
        let seconds = try decoder.decodeSeconds(
            within: Self.representableSeconds,
            expected: "seconds since the clock's origin, from 0 to 1.8e10")
        self.init(secondsSinceOrigin: seconds)
    }

    /// Encodes the seconds since the clock's origin.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(secondsSinceOrigin)
    }
}

extension MonotonicInstant {
    /// Whether at least `duration` has passed at this instant since `earlier`; always when
    /// there is no earlier instant (nothing happened yet): a dwell or a lease, for example.
    public func isAtLeast(_ duration: Duration, after earlier: MonotonicInstant?) -> Bool {
        earlier.map { self.duration(since: $0) >= duration } ?? true
    }
}
