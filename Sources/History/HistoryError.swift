/// A history database that could not be opened, read or written.
public struct HistoryError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The database file.
    public var path: String
    /// What was being done (`open`, `add run`, `read run 12`).
    public var operation: String
    /// SQLite's explanation, or ours.
    public var problem: String

    /// Creates the error.
    public init(path: String, operation: String, problem: String) {
        self.path = path
        self.operation = operation
        self.problem = problem
    }

    /// `PATH: cannot OPERATION: problem`.
    public var description: String { "\(path): cannot \(operation): \(problem)" }
}
