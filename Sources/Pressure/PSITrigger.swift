#if canImport(Glibc)
    import Glibc
#endif

/// A kernel PSI trigger: the kernel wakes us when a resource stalls more than a threshold
/// within a window, instead of us sampling to find out (`Documentation/accounting/psi.rst`).
///
/// Where the kernel does not allow triggers (no PSI, `EOPNOTSUPP`, or a window an unprivileged
/// process may not use) ``arm(resource:stallMicroseconds:windowMicroseconds:roots:)`` throws
/// and the caller falls back to sampling. A ``WaitSet`` waits on armed triggers.
public final class PSITrigger: Sendable {
    /// The resource watched.
    public let resource: PSIReading.Resource
    /// The open trigger file, which `poll` reports with `POLLPRI` when the trigger fires.
    let descriptor: Int32

    /// Arms a trigger firing when `some` stall of `resource` exceeds `stallMicroseconds` within
    /// `windowMicroseconds` (the kernel accepts windows of 0.5 s to 10 s).
    ///
    /// - Throws: ``SourceUnavailable`` naming the file and the kernel's refusal.
    public init(
        resource: PSIReading.Resource, stallMicroseconds: Int, windowMicroseconds: Int,
        roots: SystemRoots = SystemRoots()
    ) throws(SourceUnavailable) {
        let path = "\(roots.pressure)/\(resource.rawValue)"
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SourceUnavailable(
                source: .psi, reason: "PSI trigger on \(path): \(Self.reason(errno))")
        }
        let request = "some \(stallMicroseconds) \(windowMicroseconds)"
        let written = request.withCString { write(descriptor, $0, strlen($0) + 1) }
        guard written >= 0 else {
            let code = errno
            close(descriptor)
            throw SourceUnavailable(
                source: .psi, reason: "PSI trigger \"\(request)\" on \(path): \(Self.reason(code))")
        }
        self.resource = resource
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Arms one trigger per resource at the classifier's `fair` thresholds of `configuration`
    /// (percent of a 2 s window: unprivileged processes may only use multiples of 2 s), or
    /// returns the reason triggers are unavailable (said once by the caller, which then relies
    /// on sampling alone).
    public static func arm(
        for configuration: PressureConfiguration, roots: SystemRoots = SystemRoots()
    ) -> Result<[PSITrigger], SourceUnavailable> {
        let window = 2_000_000
        let thresholds: [(PSIReading.Resource, Double)] = [
            (.cpu, configuration.cpuPressure.fair), (.memory, configuration.memoryPressure.fair),
            (.io, configuration.ioPressure.fair),
        ]
        var triggers: [PSITrigger] = []
        for (resource, percent) in thresholds {
            let stall = max(1, min(window, Int(percent / 100 * Double(window))))
            do throws(SourceUnavailable) {
                triggers.append(
                    try PSITrigger(
                        resource: resource, stallMicroseconds: stall, windowMicroseconds: window,
                        roots: roots))
            } catch {
                return .failure(error)
            }
        }
        return .success(triggers)
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EOPNOTSUPP: "not supported by this kernel (EOPNOTSUPP; booted with psi=0?)"
        case ENOENT: "no such file (kernel without CONFIG_PSI)"
        default: String(cString: strerror(code))
        }
    }
}
