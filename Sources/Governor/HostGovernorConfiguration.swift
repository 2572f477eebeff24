import Units

/// The host governor's bounds and timings.
public struct HostGovernorConfiguration: Hashable, Sendable {
    /// Dwell times and the lateness threshold, as for Headroom's own pipeline.
    public var policy: GovernorPolicy
    /// How long a client stays registered without a request; any request renews it.
    public var lease: Duration
    /// Most clients registered at once.
    public var clientLimit: Int
    /// The host's processors: a work report's CPU seconds per second over this is the client's
    /// share of the host.
    public var processorCount: Int

    /// The defaults: 30 s leases, at most 64 clients.
    public init(
        policy: GovernorPolicy = GovernorPolicy(), lease: Duration = .seconds(30),
        clientLimit: Int = 64, processorCount: Int
    ) {
        self.policy = policy
        self.lease = lease
        self.clientLimit = clientLimit
        self.processorCount = max(1, processorCount)
    }

    /// The share assumed for a client that neither declared one nor reported work yet: one
    /// processor's worth of the host.
    public var unknownShare: Share { Share(fraction: 1 / Double(processorCount)) }
}

/// Why the host governor refused a request.
public enum HostGovernorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The registration would exceed ``HostGovernorConfiguration/clientLimit``.
    case clientLimitReached(Int)

    /// The message.
    public var description: String {
        switch self {
        case .clientLimitReached(let limit):
            "at most \(limit) clients may be registered at once"
        }
    }
}
