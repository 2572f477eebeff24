import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// How many sensor files may stay open at once: half of the process's descriptor limit
/// (`RLIMIT_NOFILE`), so that a board with thousands of hwmon inputs never takes the
/// descriptors PSI, sockets and reports need. Files beyond the budget are still read at every
/// sample, by path (open, read, close) — slower, never left out.
enum SensorDescriptorBudget {
    /// The number of files kept open at most.
    static let limit: Int = {
        var limits = rlimit()
        // RLIM_INFINITY is all ones; it is held to 2²⁰ like any huge limit.
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else {
            return 512
        }
        return max(16, Int(min(limits.rlim_cur, 1 << 20)) / 2)
    }()

    private static let held = LockedState(0)

    /// Takes one place in the budget; `false` when it is spent.
    static func take() -> Bool {
        held.withLock { held in
            guard held < limit else { return false }
            held += 1
            return true
        }
    }

    /// Gives back a place taken by ``take()``.
    static func give() {
        held.withLock { $0 -= 1 }
    }
}
