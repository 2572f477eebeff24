/// Why the metrics server could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The listen address could not be parsed.
    case invalidListenAddress(String, expected: String)
    /// A configuration bound is out of range.
    case invalidConfiguration(field: String, expected: String)
    /// libmicrohttpd could not bind or start (e.g. the port is taken); `reason` is `strerror`.
    case cannotStart(address: String, reason: String)

    /// What went wrong, naming the metric or setting and what was expected.
    public var description: String {
        switch self {
        case .invalidListenAddress(let text, let expected):
            return "--listen \"\(text)\": expected \(expected)"
        case .invalidConfiguration(let field, let expected):
            return "\(field): expected \(expected)"
        case .cannotStart(let address, let reason):
            return "cannot serve on \(address): \(reason)"
        }
    }
}
