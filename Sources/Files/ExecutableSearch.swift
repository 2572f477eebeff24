import FoundationEssentials

/// Finds programs the way a shell does, for the tools Headroom starts as child processes
/// (ffmpeg).
public enum ExecutableSearch {
    /// The first executable file named `name` in the directories of `PATH` (or of `path` when
    /// given); `nil` when there is none. A name with a `/` is checked as it is.
    public static func find(_ name: String, path: String? = nil) -> String? {
        let fileManager = FileManager.default
        if name.contains("/") { return fileManager.isExecutableFile(atPath: name) ? name : nil }
        let directories =
            (path ?? ProcessFacts.environment["PATH"] ?? "/usr/bin:/bin")
            .split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if fileManager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
