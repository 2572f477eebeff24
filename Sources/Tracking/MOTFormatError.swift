/// A MOTChallenge file that cannot be read: the file, the 1-based line and what was expected.
public struct MOTFormatError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, as the caller named it.
    public var file: String
    /// The 1-based line number; 0 when the whole file is at fault (it cannot be opened).
    public var line: Int
    /// What was wrong and what was expected.
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// `FILE:LINE: problem`.
    public var description: String {
        line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)"
    }
}
