/// Why the reserve could not do what was asked.
public enum StorageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The reserve's filesystem cannot hold one (no `fallocate`, read-only), with why.
    case notSupported(String)
    /// Something else holds the reserve; the reasons it is busy.
    case busy([BusyReason])
    /// Not enough space: what was needed and what there is.
    case notEnoughSpace(needed: ByteCount, available: ByteCount)
    /// A value that cannot be used (a size of zero), naming it.
    case invalid(String)
    /// A system call failed on `path`.
    case system(path: String, operation: String, error: String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .notSupported(let why):
            return "pro video storage is not supported here: \(why)"
        case .busy(let reasons):
            return "the reserve is busy: \(reasons.map(\.rawValue).joined(separator: ", "))"
        case .notEnoughSpace(let needed, let available):
            return "not enough space: needs \(needed), \(available) available"
        case .invalid(let problem):
            return problem
        case .system(let path, let operation, let error):
            return "\(path): cannot \(operation): \(error)"
        }
    }

    /// Whether the input was at fault (exit 2) rather than the reserve's state (exit 1).
    public var isUsageError: Bool {
        switch self {
        case .notEnoughSpace, .invalid: return true
        case .notSupported, .busy, .system: return false
        }
    }
}
