import Files
import Foundation
import Locking

/// ffmpeg as a child process, the way the video source and encoder start it: found in `PATH`
/// (or given), with one end piped to us and its standard error collected as it writes, so its
/// own message can explain a failure.
struct FFmpegProcess {
    /// Which of ffmpeg's standard streams is piped to us.
    enum Direction {
        /// We read what ffmpeg writes on its standard output (decoding).
        case reading
        /// We write what ffmpeg reads on its standard input (encoding).
        case writing
    }

    let process: Process
    /// Our end of the pipe: the read end when ``Direction/reading``, else the write end.
    let pipe: FileHandle
    /// What ffmpeg has said on its standard error, most recent last.
    let errors = ErrorTail()
    private let errorPipe = Pipe()
    /// Signalled once when ffmpeg exits.
    private let exited = DispatchSemaphore(value: 0)

    /// Starts ffmpeg with `arguments`.
    ///
    /// - Parameters:
    ///   - doing: what ffmpeg is started for (`decoding video`), for the error messages.
    ///   - failure: makes the error thrown, from its problem text.
    /// - Throws: `failure`'s error when ffmpeg is not found or cannot start.
    init(
        _ arguments: [String], direction: Direction, executable: String?, doing: String,
        failure: (String) -> ConfigurationError
    ) throws(ConfigurationError) {
        guard let executable = executable ?? ExecutableSearch.find("ffmpeg") else {
            throw failure(
                "\(doing) needs ffmpeg, which is not in PATH (Debian: apt-get install ffmpeg)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error"] + arguments
        let data = Pipe()
        switch direction {
        case .reading:
            process.standardOutput = data
            process.standardInput = FileHandle.nullDevice
            pipe = data.fileHandleForReading
        case .writing:
            process.standardInput = data
            process.standardOutput = FileHandle.nullDevice
            pipe = data.fileHandleForWriting
        }
        let errors = errors
        process.standardError = errorPipe
        errorPipe.fileHandleForReading.readabilityHandler = { handle in
            errors.append(handle.availableData)
        }
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw failure("cannot start \(executable): \(error.localizedDescription)")
        }
    }

    /// Stops ffmpeg: SIGTERM, then SIGKILL if it has not exited within `grace`; returns once
    /// it has exited.
    func stop(grace: DispatchTimeInterval = .seconds(2)) {
        if process.isRunning { process.terminate() }
        if exited.wait(timeout: .now() + grace) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// Waits for ffmpeg to exit and returns everything it said, including what the
    /// collecting handler had not yet read.
    func finishedErrors() -> String {
        process.waitUntilExit()
        errorPipe.fileHandleForReading.readabilityHandler = nil
        errors.append(errorPipe.fileHandleForReading.readDataToEndOfFile())
        return errors.text
    }
}

/// The last few KiB a child process wrote to its standard error, collected as it writes.
final class ErrorTail: Sendable {
    private let bytes = LockedState<[UInt8]>([])

    func append(_ data: Data) {
        bytes.withLock { bytes in
            bytes.append(contentsOf: data)
            if bytes.count > 4096 { bytes.removeFirst(bytes.count - 4096) }
        }
    }

    /// What was written, trimmed, on one line.
    var text: String {
        String(decoding: bytes.withLock { $0 }, as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
