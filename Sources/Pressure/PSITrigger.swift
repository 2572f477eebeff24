import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A kernel PSI trigger: the kernel wakes us when a resource stalls more than a threshold
/// within a window, instead of us sampling to find out (`Documentation/accounting/psi.rst`).
///
/// Where the kernel does not allow triggers (no PSI, `EOPNOTSUPP`, or a window an unprivileged
/// process may not use) ``arm(resource:stallMicroseconds:windowMicroseconds:roots:)`` throws
/// and the caller falls back to sampling.
public final class PSITrigger: Sendable {
    /// The resource watched.
    public let resource: PSIReading.Resource
    private let descriptor: Int32

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

    /// Waits up to `timeoutMilliseconds` for any of `triggers`; the resources that fired.
    ///
    /// Blocks the calling thread: use it from a dedicated thread, never from the cooperative
    /// pool.
    public static func wait(for triggers: [PSITrigger], timeoutMilliseconds: Int32)
        -> [PSIReading.Resource]
    {
        var requests = triggers.map {
            pollfd(fd: $0.descriptor, events: Int16(POLLPRI), revents: 0)
        }
        guard poll(&requests, nfds_t(requests.count), timeoutMilliseconds) > 0 else { return [] }
        return zip(triggers, requests).filter { $0.1.revents & Int16(POLLPRI) != 0 }.map(
            \.0.resource)
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EOPNOTSUPP: "not supported by this kernel (EOPNOTSUPP; booted with psi=0?)"
        case ENOENT: "no such file (kernel without CONFIG_PSI)"
        default: String(cString: strerror(code))
        }
    }
}
