import Units

/// When a source of sensor files looks for changes: a full discovery every rescan interval
/// (limits and labels may change), and a quick look — its directory's entries, files replaced
/// under their descriptors — at most every ``checkInterval``.
///
/// Times are instants on the sampler's clock. A clock that went back (a new trace, a test)
/// makes a discovery due at once.
struct DiscoverySchedule: Sendable {
    /// The least time between two quick looks: a new sensor is seen within it. Every five
    /// seconds: a path lookup after a 100 ms sleep costs 50–100 µs on a small VM, and a
    /// 10 Hz observer looking every second paid that on every tenth sample.
    static let checkInterval = Duration.seconds(5)

    /// The time between full discoveries; zero rediscovers on every sample.
    let rescanInterval: Duration
    private(set) var lastDiscovery: MonotonicInstant?
    private(set) var lastCheck: MonotonicInstant?

    /// A schedule rediscovering every `rescanInterval`.
    init(rescanInterval: Duration) {
        self.rescanInterval = rescanInterval
    }

    /// Whether a full discovery is due at `time`: before the first, once the rescan interval
    /// has passed, and when the clock went back.
    func isDiscoveryDue(at time: MonotonicInstant) -> Bool {
        guard let last = lastDiscovery else { return true }
        return time < last || time.duration(since: last) >= rescanInterval
    }

    /// Notes a discovery (or an attempt at one) at `time`.
    mutating func discovered(at time: MonotonicInstant) {
        lastDiscovery = time
    }

    /// Makes the next sample discover again.
    mutating func forgetDiscovery() {
        lastDiscovery = nil
    }

    /// Whether a quick look is due at `time`; when it is, it is taken to be made now.
    mutating func takeCheck(at time: MonotonicInstant) -> Bool {
        if let last = lastCheck {
            // Either way round: a clock that went back looks again after as long.
            let apart = time < last ? last.duration(since: time) : time.duration(since: last)
            guard apart >= Self.checkInterval else { return false }
        }
        lastCheck = time
        return true
    }
}
