/// A configuration file or value that cannot be used, with where and why.
///
/// The description reads `FILE: FIELD.PATH: problem`, for example
/// `session.json: cameras[1].format.maxFrameRate: expected a positive number, got -30`.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file the value came from, when it came from a file.
    public var file: String?
    /// The field path inside the document, such as `cameras[1].id`; empty for the whole document.
    public var path: String
    /// What was wrong and what was expected instead.
    public var problem: String

    /// Creates an error for the value at `path` in `file`.
    public init(file: String? = nil, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    /// `FILE: PATH: problem`, leaving out the parts that are unknown.
    public var description: String {
        [file, path.isEmpty ? nil : path, problem].compactMap { $0 }.joined(separator: ": ")
    }

    /// The same error, attributed to `file`.
    public func inFile(_ file: String) -> ConfigurationError {
        var copy = self
        copy.file = file
        return copy
    }
}
