import Files
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Measures a launch in a fresh process: runs a program that launches once and prints its
/// ``LaunchReport`` as JSON on stdout (`headroom launch measure` runs itself so), and returns
/// that report. Both of the child's output pipes are read at once — stderr on a thread of its
/// own — so a child that writes a lot to stderr can never block on a full pipe while its
/// stdout is being read.
public enum ChildLaunch {
    /// A launch that did not end well: its exit status and what it said on stderr.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The child's exit status (128 + the signal when killed by one).
        public var status: Int32
        /// Its stderr.
        public var message: String

        /// `a launch exited with status 2: …`.
        public var description: String {
            "a launch exited with status \(status): \(message.trimmingWhitespace())"
        }
    }

    /// Runs `executable` with `arguments` and decodes the report it prints.
    ///
    /// - Throws: ``Failure`` when it exits unsuccessfully, ``Files/ConfigurationError`` when
    ///   its output is not a launch report, or ``ChildProcessError`` when it cannot start.
    public static func run(executable: String, arguments: [String]) throws -> LaunchReport {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, output: .pipe, errors: .pipe)
        let message = Completion<[UInt8]>()
        let errors = child.errors ?? -1
        DetachedThread.start(name: "headroom-stderr") {
            message.complete(readToEnd(errors))
        }
        let data = readToEnd(child.output ?? -1)
        let said = message.wait()
        let status = child.waitForExit()
        guard status == 0 else {
            throw Failure(status: status, message: String(decoding: said, as: UTF8.self))
        }
        return try LaunchReport.decode(data, file: "output of \(executable)")
    }

    /// Everything left to read from `descriptor`, which is then closed.
    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
        }
    }
}
