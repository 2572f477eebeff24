import Units

/// When a source of sensor files looks for changes: a full discovery every rescan interval
/// (limits and labels may change), and a quick look — its directory's entries, files replaced
/// under their descriptors — at most every ``checkSeconds``.
///
/// Times are seconds on the sampler's clock. A clock that went back (a new trace, a test)
/// makes a discovery due at once.
struct DiscoverySchedule: Sendable {
    /// The least time between two quick looks: a new sensor is seen within it. Every five
    /// seconds: a path lookup after a 100 ms sleep costs 50–100 µs on a small VM, and a
    /// 10 Hz observer looking every second paid that on every tenth sample.
    static let checkSeconds = 5.0

    /// Seconds between full discoveries; 0 rediscovers on every sample.
    let rescanSeconds: Double
    private var lastDiscovery: Double?
    private var lastCheck: Double?

    /// A schedule rediscovering every `rescanInterval`.
    init(rescanInterval: Duration) {
        rescanSeconds = rescanInterval.seconds
    }

    /// Whether a full discovery is due at `time`: before the first, once the rescan interval
    /// has passed, and when the clock went back.
    func isDiscoveryDue(at time: Double) -> Bool {
        lastDiscovery.map { time - $0 >= rescanSeconds || time < $0 } ?? true
    }

    /// Notes a discovery (or an attempt at one) at `time`.
    mutating func discovered(at time: Double) {
        lastDiscovery = time
    }

    /// Makes the next sample discover again.
    mutating func forgetDiscovery() {
        lastDiscovery = nil
    }

    /// Whether a quick look is due at `time`; when it is, it is taken to be made now.
    mutating func takeCheck(at time: Double) -> Bool {
        guard lastCheck.map({ abs(time - $0) >= Self.checkSeconds }) ?? true else { return false }
        lastCheck = time
        return true
    }
}
