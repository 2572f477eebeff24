import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// A backend that reads pressure stall information; tests use a fixture implementation.
public protocol PressureStallSource: Sendable {
    /// Reads every resource's PSI for the sample taken at `time` (seconds, as the sampler's).
    ///
    /// - Throws: ``SourceUnavailable`` when the kernel has no PSI (missing files, `EOPNOTSUPP`
    ///   when booted with `psi=0`).
    func readPressure(at time: MonotonicInstant) throws(SourceUnavailable) -> [PSIReading]
}

/// PSI from `/proc/pressure/{cpu,memory,io}`, the files kept open and re-read with `pread`.
///
/// The kernel recomputes the averages only every 2 s (`PSI_FREQ`), so reading them 10 times a
/// second returns the same numbers 19 times in 20: with a ``refreshInterval`` the files are
/// read at most that often and the last readings are reused in between (only the `total`
/// fields, which no level depends on, are then that much older).
public final class PSISource: PressureStallSource {
    /// Where `/proc` is.
    public let roots: SystemRoots
    /// The least time between two reads of the files, in seconds of sample time; 0 reads on
    /// every call.
    public let refreshInterval: Duration
    private let files = LockedState<[PSIReading.Resource: SysfsValueFile]>([:])
    private let lastRead = LockedState<(time: MonotonicInstant, readings: [PSIReading])?>(nil)
    /// Each resource's path, built once rather than on every sample.
    private let paths: [(resource: PSIReading.Resource, path: String)]

    /// A source reading under `roots`, at most every `refreshInterval`.
    public init(roots: SystemRoots = SystemRoots(), refreshInterval: Duration = .zero) {
        self.roots = roots
        self.refreshInterval = refreshInterval
        self.paths = PSIReading.Resource.allCases.map { ($0, "\(roots.pressure)/\($0.rawValue)") }
    }

    /// The three resources' readings: the last ones while they are younger than
    /// ``refreshInterval`` at `time`, else read afresh.
    ///
    /// - Throws: ``SourceUnavailable`` when no resource can be read, or a file holds garbage.
    public func readPressure(at time: MonotonicInstant) throws(SourceUnavailable) -> [PSIReading] {
        if refreshInterval > .zero,
            let last = lastRead.withLock({ $0 }), time >= last.time,
            time.duration(since: last.time) < refreshInterval
        {
            return last.readings
        }
        let readings = try readFiles()
        if refreshInterval > .zero { lastRead.withLock { $0 = (time, readings) } }
        return readings
    }

    /// Reads the three files; a resource whose file is missing is left out.
    private func readFiles() throws(SourceUnavailable) -> [PSIReading] {
        var readings: [PSIReading] = []
        var firstFault: (String, SensorFault)?
        readings.reserveCapacity(paths.count)
        for (resource, path) in paths {
            do throws(SensorFault) {
                readings.append(try read(resource, path: path))
            } catch {
                if firstFault == nil { firstFault = (path, error) }
            }
        }
        if readings.isEmpty, let (path, fault) = firstFault {
            let reason: String
            switch fault {
            case .vanished: reason = "no \(path) (kernel without CONFIG_PSI)"
            case .systemError(let code) where code == EOPNOTSUPP:
                reason = "\(path): not supported (EOPNOTSUPP; booted with psi=0?)"
            default: reason = "\(path): \(fault)"
            }
            throw SourceUnavailable(source: .psi, reason: reason)
        }
        return readings
    }

    /// The resource's reading through a kept-open descriptor; a failing descriptor is dropped
    /// so the next sample opens the file again. The kernel's layout is parsed from the bytes
    /// directly; anything else goes through ``PSIReading/init(resource:parsing:)``.
    private func read(_ resource: PSIReading.Resource, path: String) throws(SensorFault)
        -> PSIReading
    {
        // The outer result is the file's, the inner one the parse's: garbage keeps the file.
        let result: Result<Result<PSIReading, SensorFault>, SensorFault> = files.withLock {
            files in
            do throws(SensorFault) {
                let file: SysfsValueFile
                if let open = files[resource] {
                    file = open
                } else {
                    file = try SysfsValueFile(path: path)
                    files[resource] = file
                }
                return .success(
                    try file.withContents(capacity: 4096) { bytes in
                        if let reading = PSIReading.parseCanonical(resource: resource, bytes) {
                            return .success(reading)
                        }
                        return Result { () throws(SensorFault) in
                            try PSIReading(
                                resource: resource, parsing: String(decoding: bytes, as: UTF8.self))
                        }
                    })
            } catch {
                files[resource] = nil
                return .failure(error)
            }
        }
        return try result.get().get()
    }
}

extension PSISource: QuietWatchable {
    /// No file until the last readings are due for a refresh: they are reused until then.
    func quietWatch(after time: MonotonicInstant) -> QuietWatch? {
        guard refreshInterval > .zero, let last = lastRead.withLock({ $0 }) else { return nil }
        return QuietWatch(files: [], until: last.time.advanced(by: refreshInterval))
    }
}
