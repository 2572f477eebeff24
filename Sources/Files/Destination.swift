#if canImport(Glibc)
    import Glibc
#endif

/// A place Headroom will write a file or a directory of files, checked before the work that
/// produces them starts, so that a run never ends with results it cannot write and a device,
/// FIFO or socket named by mistake is never replaced.
///
/// A destination is valid when its path is not empty, no name in it is longer than `NAME_MAX`
/// (255 bytes) and the whole is shorter than `PATH_MAX`; when what is already there is of the
/// expected kind (a regular file, or a directory) — a symlink is judged by what it points to;
/// and when the nearest existing directory on the way can take a new file (checked by creating
/// and removing one, which also catches read-only mounts and `/proc`). Missing directories on
/// the way are not created by the check; ``AtomicFile`` creates them when it writes.
public struct Destination: Sendable, Hashable, CustomStringConvertible {
    /// What is written at a destination.
    public enum Kind: Sendable, Hashable {
        /// One file, replaced atomically.
        case file
        /// A directory that receives files (a run's reports).
        case directory
    }

    /// The path as given.
    public let path: String
    /// What is written there.
    public let kind: Kind

    /// The longest name of one path component, in bytes (Linux's `NAME_MAX`).
    public static let nameLimit = 255
    /// The longest path, in bytes (Linux's `PATH_MAX` less its terminating zero).
    public static let pathLimit = 4095

    /// Checks `path` as a destination of `kind`.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` and what was wrong: an empty path, a name
    ///   or path too long, something other than a regular file (or a directory) in the way, a
    ///   file where a directory is needed on the way, or a directory that refuses new files.
    public init(checking path: String, as kind: Kind) throws(ConfigurationError) {
        guard !path.isEmpty else {
            throw ConfigurationError(path: "", problem: "expected a path, got an empty one")
        }
        self.path = path
        self.kind = kind
        try Self.checkLengths(path)
        var status = stat()
        if stat(path, &status) == 0 {
            try Self.checkExisting(path, type: status.st_mode & S_IFMT, kind: kind)
        } else if errno != ENOENT && errno != ENOTDIR {
            throw Self.failure(path, "cannot be examined: \(String(cString: strerror(errno)))")
        }
        let directory =
            kind == .directory && FileSystem.isDirectory(path)
            ? path : Self.parent(of: path)
        let existing = try Self.nearestExistingDirectory(from: directory, for: path)
        try Self.probeWritable(existing, for: path)
    }

    /// The path.
    public var description: String { path }

    /// The directory a file at `path` lives in (`.` for a bare name).
    public static func parent(of path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = String(trimmed[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Whether something at `path` (following links) is of the type a destination of `kind`
    /// may replace or fill; the name of what is there otherwise.
    static func refusal(type: mode_t, kind: Kind) -> String? {
        switch (kind, type) {
        case (.file, S_IFREG), (.directory, S_IFDIR): nil
        case (.file, _):
            "is \(InputFile.describe(fileType: type)); expected a regular file or a new name"
        case (.directory, _):
            "is \(InputFile.describe(fileType: type)); expected a directory or a new name"
        }
    }

    private static func checkExisting(_ path: String, type: mode_t, kind: Kind)
        throws(ConfigurationError)
    {
        if let refusal = refusal(type: type, kind: kind) { throw failure(path, refusal) }
    }

    private static func checkLengths(_ path: String) throws(ConfigurationError) {
        guard path.utf8.count <= pathLimit else {
            throw failure(path, "is \(path.utf8.count) bytes long; at most \(pathLimit)")
        }
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > nameLimit }) {
            throw failure(
                path,
                "has a name of \(long.utf8.count) bytes (\"\(long.prefix(16))…\"); at most \(nameLimit)"
            )
        }
    }

    /// The deepest directory of `directory` and its ancestors that exists; a non-directory on
    /// the way is an error.
    private static func nearestExistingDirectory(from directory: String, for path: String)
        throws(ConfigurationError) -> String
    {
        var candidate = directory
        while true {
            var status = stat()
            if stat(candidate, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw failure(path, "\(candidate) is not a directory")
                }
                return candidate
            }
            guard errno == ENOENT || errno == ENOTDIR, candidate != "/", candidate != "." else {
                throw failure(
                    path, "cannot reach \(candidate): \(String(cString: strerror(errno)))")
            }
            candidate = parent(of: candidate)
        }
    }

    /// Creates and removes a file in `directory`: the one honest test that a file can be
    /// written there (permissions, read-only mounts, `/proc` and `/sys` all answer it).
    private static func probeWritable(_ directory: String, for path: String)
        throws(ConfigurationError)
    {
        var generator = SystemRandomNumberGenerator()
        let probe = "\(directory)/.headroom-probe.\(String(generator.next() as UInt64, radix: 36))"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw failure(path, "cannot write in \(directory): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        unlink(probe)
    }

    private static func failure(_ path: String, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: path, path: "", problem: problem)
    }
}
