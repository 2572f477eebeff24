import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// What drives the thermal model: a load between 0 and 1 over time.
public protocol LoadSource: Sendable {
    /// The mean load since the previous call, 0…1, at `time` on the sampler's clock.
    func load(at time: MonotonicInstant) -> Double
}

/// A given load curve: piecewise linear between `(time, load)` points, flat outside them;
/// times are seconds since the clock's origin.
public struct LoadCurve: LoadSource {
    /// The points, sorted by time.
    public let points: [(time: Double, load: Double)]

    /// A curve through `points` (sorted by time here).
    public init(points: [(time: Double, load: Double)]) {
        self.points = points.sorted { $0.time < $1.time }
    }

    /// The interpolated load at `instant`.
    public func load(at instant: MonotonicInstant) -> Double {
        let time = instant.secondsSinceOrigin
        guard let first = points.first, let last = points.last else { return 0 }
        if time <= first.time { return first.load }
        if time >= last.time { return last.load }
        let index = points.firstIndex { $0.time > time }!
        let (a, b) = (points[index - 1], points[index])
        return a.load + (b.load - a.load) * (time - a.time) / (b.time - a.time)
    }
}

/// This process's measured CPU use (`CLOCK_PROCESS_CPUTIME_ID`) per second of `time`, as a
/// share of all online CPUs.
public final class ProcessCPULoad: LoadSource {
    private let previous = LockedState<(time: MonotonicInstant, cpu: Double)?>(nil)
    private let cores = Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// A load source measuring from the first call on.
    public init() {}

    /// CPU seconds used since the last call over elapsed seconds and cores; 0 on the first call.
    public func load(at time: MonotonicInstant) -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        let cpu = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        let last = previous.withLock { previous in
            defer { previous = (time, cpu) }
            return previous
        }
        guard let last, time > last.time else { return 0 }
        return min(1, max(0, (cpu - last.cpu) / time.seconds(since: last.time) / cores))
    }
}
