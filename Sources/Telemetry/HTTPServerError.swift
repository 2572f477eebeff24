/// Why the metrics server could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The listen address could not be parsed.
    case invalidListenAddress(String, expected: String)
    /// A configuration bound is out of range.
    case invalidConfiguration(field: String, expected: String)
    /// The Unix socket path cannot be served: too long, or something else (a file, a live
    /// server) is there.
    case unusableSocketPath(String, reason: String)
    /// The server could not bind or start (e.g. the port is taken); `reason` is `strerror`.
    case cannotStart(address: String, reason: String)

    /// What went wrong, naming the metric or setting and what was expected.
    public var description: String {
        switch self {
        case .invalidListenAddress(let text, let expected):
            return "--listen \"\(text)\": expected \(expected)"
        case .invalidConfiguration(let field, let expected):
            return "\(field): expected \(expected)"
        case .unusableSocketPath(let path, let reason):
            return "--socket \(path): \(reason)"
        case .cannotStart(let address, let reason):
            return "cannot serve on \(address): \(reason)"
        }
    }
}
