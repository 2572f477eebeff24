#if canImport(Glibc)
    import Glibc
#endif

/// CPU time consumed so far, in seconds: what calibration divides by the pixels it moved.
/// Unlike wall time it does not grow while the work is preempted by other processes.
enum CPUTime {
    /// CPU seconds used by every thread of this process (`CLOCK_PROCESS_CPUTIME_ID`).
    static func process() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// CPU seconds used by the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
    static func thread() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }

    /// Online CPUs, at least 1.
    static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private static func read(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
