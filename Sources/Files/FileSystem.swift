#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the file system says about a path, asked of the C library (what Foundation's
/// `FileManager` tells, without linking Foundation), and a path's parts, worked out from its
/// text alone.
public enum FileSystem {
    /// Whether something exists at `path`, symbolic links followed (a dangling link is not).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` names an existing directory, or a symbolic link to one.
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether this process may read `path` (`access(R_OK)`).
    public static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The names in `directory` (not `.` or `..`), in the order the directory lists them;
    /// nil when it cannot be listed.
    public static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What the symbolic link at `path` points to, as written; nil when it is no link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The process's working directory; `.` when it cannot be named (deleted, or too long).
    public static var currentDirectory: String {
        guard let text = getcwd(nil, 0) else { return "." }
        defer { free(text) }
        return String(cString: text)
    }

    /// The directory for temporary files: `TMPDIR` when it is absolute, else `/tmp`.
    public static var temporaryDirectory: String {
        if let directory = getenv("TMPDIR").map({ String(cString: $0) }), directory.hasPrefix("/") {
            return directory
        }
        return "/tmp"
    }

    /// `path` from the root: a relative path joined to the working directory (as Foundation's
    /// file URLs do), an absolute one as it is.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory + "/" + path
    }

    /// The directory part of `path`, as `dirname` gives it: `a/b` for `a/b/c` (and `a/b/c/`),
    /// `.` for a bare name, `/` for `/c`.
    public static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last part of `path`, as `basename` gives it: `c` for `a/b/c` (and `a/b/c/`), `/`
    /// for `/`.
    public static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return trimmed == "/" ? "/" : String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of `path`'s name (`mp4` for `a/clip.mp4`); empty when it has none (a
    /// leading dot, as in `.profile`, starts no extension).
    public static func nameExtension(of path: String) -> String {
        let name = name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path`'s name without its extension (`clip` for `a/clip.mp4`).
    public static func stem(of path: String) -> String {
        let name = name(of: path)
        let suffix = nameExtension(of: path)
        return suffix.isEmpty ? name : String(name.dropLast(suffix.count + 1))
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return String(trimmed)
    }
}
