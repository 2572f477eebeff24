import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A backend that reads pressure stall information; tests use a fixture implementation.
public protocol PressureStallSource: Sendable {
    /// Reads every resource's PSI.
    ///
    /// - Throws: ``SourceUnavailable`` when the kernel has no PSI (missing files, `EOPNOTSUPP`
    ///   when booted with `psi=0`).
    func readPressure() throws(SourceUnavailable) -> [PSIReading]
}

/// PSI from `/proc/pressure/{cpu,memory,io}`, the files kept open and re-read with `pread`.
public final class PSISource: PressureStallSource {
    /// Where `/proc` is.
    public let roots: SystemRoots
    private let files = Mutex<[PSIReading.Resource: SysfsValueFile]>([:])

    /// A source reading under `roots`.
    public init(roots: SystemRoots = SystemRoots()) {
        self.roots = roots
    }

    /// Reads the three files; a resource whose file is missing is left out.
    ///
    /// - Throws: ``SourceUnavailable`` when no resource can be read, or a file holds garbage.
    public func readPressure() throws(SourceUnavailable) -> [PSIReading] {
        var readings: [PSIReading] = []
        var firstFault: (String, SensorFault)?
        for resource in PSIReading.Resource.allCases {
            let path = "\(roots.pressure)/\(resource.rawValue)"
            do throws(SensorFault) {
                let text = try readText(resource, path: path)
                readings.append(try PSIReading(resource: resource, parsing: text))
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

    /// The file's text through a kept-open descriptor; a failing descriptor is dropped so the
    /// next sample opens the file again.
    private func readText(_ resource: PSIReading.Resource, path: String) throws(SensorFault)
        -> String
    {
        let result: Result<String, SensorFault> = files.withLock { files in
            do throws(SensorFault) {
                let file: SysfsValueFile
                if let open = files[resource] {
                    file = open
                } else {
                    file = try SysfsValueFile(path: path)
                    files[resource] = file
                }
                return .success(try file.readText())
            } catch {
                files[resource] = nil
                return .failure(error)
            }
        }
        return try result.get()
    }
}
