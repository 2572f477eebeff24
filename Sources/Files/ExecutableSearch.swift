#if canImport(Glibc)
    import Glibc
#endif

/// Finds programs the way a shell does, for the tools Headroom starts as child processes
/// (ffmpeg).
public enum ExecutableSearch {
    /// The first executable file named `name` in the directories of `PATH` (or of `path` when
    /// given); `nil` when there is none. A name with a `/` is checked as it is.
    public static func find(_ name: String, path: String? = nil) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        let directories =
            (path ?? ProcessFacts.environment["PATH"] ?? "/usr/bin:/bin")
            .split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is a file (not a directory) this process may execute, links followed.
    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR
            && access(path, X_OK) == 0
    }
}
