#if canImport(Glibc)
    import Glibc
#endif

/// Reads the files users name on the command line with a size limit, so that `/dev/zero`, a
/// FIFO nobody writes to or a runaway file is an error, never a hang or gigabytes of memory.
public enum InputFile {
    /// The default limit on an input file's size: far above any session, profile, policy,
    /// trace or report, far below what would hurt a small machine.
    public static let defaultLimit = 16 << 20

    /// Reads the whole regular file at `path`, or standard input when `path` is `-`.
    ///
    /// A FIFO, device, socket or directory is refused (only `-` reads a stream), as is a file
    /// larger than `limit` bytes.
    ///
    /// - Throws: ``ConfigurationError`` naming `path`: no such file, not a regular file, over
    ///   the limit (stated in the message), or unreadable.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(ConfigurationError)
        -> [UInt8]
    {
        if path == "-" { return try readStream(STDIN_FILENO, name: path, limit: limit) }
        // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat refuses it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let reason = errno
            throw ConfigurationError(
                file: path, path: "",
                problem: reason == ENOENT
                    ? "no such file" : "cannot be opened: \(String(cString: strerror(reason)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ConfigurationError(file: path, path: "", problem: "cannot be read")
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw ConfigurationError(
                file: path, path: "",
                problem:
                    "is \(describe(fileType: kind)); expected a regular file (use - for standard input)"
            )
        }
        guard Int(status.st_size) <= limit else {
            throw tooLarge(path, limit: limit)
        }
        return try readStream(descriptor, name: path, limit: limit)
    }

    /// Reads `descriptor` to its end, refusing more than `limit` bytes.
    private static func readStream(_ descriptor: Int32, name: String, limit: Int)
        throws(ConfigurationError) -> [UInt8]
    {
        var data: [UInt8] = []
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress, chunkSize)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A regular file opened non-blocking never says EAGAIN; stdin might.
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&poller, 1, -1)
                    continue
                }
                throw ConfigurationError(
                    file: name, path: "",
                    problem: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw tooLarge(name, limit: limit) }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    private static func tooLarge(_ name: String, limit: Int) -> ConfigurationError {
        ConfigurationError(
            file: name, path: "",
            problem: "is larger than the input limit of \(limit >> 20) MiB (\(limit) bytes)")
    }

    /// What a file of type `fileType` (`st_mode & S_IFMT`) is, for messages: "a FIFO".
    static func describe(fileType: mode_t) -> String {
        switch fileType {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
