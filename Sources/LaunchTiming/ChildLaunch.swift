import Files
import Foundation

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
    ///   its output is not a launch report, or the error of starting it.
    public static func run(executable: String, arguments: [String]) throws -> LaunchReport {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let message = Collected()
        let reader = Thread {
            message.data = errors.fileHandleForReading.readDataToEndOfFile()
            message.done.signal()
        }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        message.done.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                status: process.terminationStatus,
                message: String(decoding: message.data, as: UTF8.self))
        }
        return try LaunchReport.decode(data, file: "output of \(executable)")
    }

    /// What the stderr thread read, handed over once `done` is signalled.
    private final class Collected: @unchecked Sendable {
        // Unchecked: `data` is written by the reader thread before `done` is signalled and
        // read by the caller only after waiting on it.
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}
