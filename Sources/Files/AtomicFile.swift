#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a reader sees either the old contents or the new, never a part, and so
/// that nobody else's file can be overwritten through a planted link:
///
/// - the data goes to a temporary file in the destination's directory, under an unpredictable
///   name, created with `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC` (a symlink or file planted
///   at that name makes the create fail, it is never followed or truncated);
/// - a device, FIFO, socket or directory at the destination is refused, never replaced (check
///   a destination before the work with ``Destination``);
/// - the temporary file is flushed (`fsync`), renamed over the destination (a symlink at the
///   destination is replaced, not followed), and the directory is flushed so the rename
///   survives a power cut;
/// - new files get mode 0644 and new directories 0755, both under the process's umask.
public enum AtomicFile {
    /// How many unpredictable names are tried before giving up (each collision is either
    /// astronomically unlikely or somebody planting files).
    private static let nameAttempts = 16

    /// Replaces the file at `path` with `bytes`, creating missing parent directories.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when the directory cannot be created or the
    ///   file cannot be written; the destination is then left untouched.
    public static func write(_ bytes: some Collection<UInt8>, to path: String)
        throws(ConfigurationError)
    {
        try write(to: path) { descriptor in
            bytes.withContiguousStorageIfAvailable {
                DescriptorIO.writeAll(UnsafeRawBufferPointer($0), to: descriptor)
            } ?? Array(bytes).withUnsafeBytes { DescriptorIO.writeAll($0, to: descriptor) }
        }
    }

    /// Replaces the file at `path` with what `body` writes into the temporary file's
    /// descriptor (it returns `false`, with `errno` set, when it could not), creating missing
    /// parent directories. For contents too large to hold in memory, such as a recording
    /// copied from another filesystem.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when the directory cannot be created or the
    ///   file cannot be written; the destination is then left untouched.
    public static func write(to path: String, using body: (Int32) -> Bool)
        throws(ConfigurationError)
    {
        guard !path.isEmpty else {
            throw ConfigurationError(path: "", problem: "expected a path, got an empty one")
        }
        let directory = FileSystem.parent(of: path)
        let name = FileSystem.name(of: path)
        // A device, FIFO, socket or directory at the destination is never replaced (as root
        // a rename over /dev/null would replace it); a symlink is replaced, never followed.
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFLNK,
            let refusal = Destination.refusal(type: status.st_mode & S_IFMT, kind: .file)
        {
            throw ConfigurationError(file: path, path: "", problem: refusal)
        }
        try createDirectories(directory, for: path)
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw failure(path, "cannot open directory \(directory)")
        }
        defer { close(directoryDescriptor) }

        let (descriptor, temporary) = try createTemporary(
            in: directoryDescriptor, for: name, path: path)
        let written = body(descriptor)
        let synced = written && fsync(descriptor) == 0
        let writeError = errno
        close(descriptor)
        guard synced, renameat(directoryDescriptor, temporary, directoryDescriptor, name) == 0
        else {
            let reason = synced ? errno : writeError
            unlinkat(directoryDescriptor, temporary, 0)
            errno = reason
            throw failure(path, "cannot write")
        }
        // The rename is durable only once the directory is; a failure here changes nothing
        // that a reader could see, so it is not an error.
        _ = fsync(directoryDescriptor)
    }

    /// Replaces the file at `path` with `text` in UTF-8.
    public static func write(_ text: String, to path: String) throws(ConfigurationError) {
        try write(Array(text.utf8), to: path)
    }

    /// Creates `directory` and its missing parents with mode 0755 (under the umask); a path
    /// that exists but is not a directory is an error. Errors name `path` (the file the
    /// directory is for), or the directory itself.
    public static func createDirectories(_ directory: String, for path: String? = nil)
        throws(ConfigurationError)
    {
        let path = path ?? directory
        var partial = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST {
                throw failure(path, "cannot create directory \(directory)")
            }
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            errno = ENOTDIR
            throw failure(path, "cannot create directory \(directory)")
        }
    }

    /// Creates `.NAME.RANDOM.tmp` in the directory, exclusively and without following links.
    private static func createTemporary(in directory: Int32, for name: String, path: String)
        throws(ConfigurationError) -> (descriptor: Int32, name: String)
    {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<nameAttempts {
            let suffix = String(generator.next() as UInt64, radix: 36)
            // Within NAME_MAX whatever the destination's name: a name of 255 bytes is valid.
            let temporary =
                ".\(name.utf8.count > 200 ? String(name.prefix(40)) : name).\(suffix).tmp"
            let descriptor = openat(
                directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (descriptor, temporary) }
            guard errno == EEXIST || errno == ELOOP else { break }
        }
        throw failure(path, "cannot create a temporary file beside it")
    }

    private static func failure(_ path: String, _ what: String) -> ConfigurationError {
        ConfigurationError(
            file: path, path: "", problem: "\(what): \(String(cString: strerror(errno)))")
    }
}
