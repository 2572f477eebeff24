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

/// PSI from `/proc/pressure/{cpu,memory,io}`.
public struct PSISource: PressureStallSource {
    /// Where `/proc` is.
    public var roots: SystemRoots

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
                let text = try SysfsValueFile(path: path).readText()
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
}
