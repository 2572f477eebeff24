import Files
import LaunchTiming
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Encodes frames into a video file with ffmpeg (Debian's `ffmpeg`, a child process reading
/// raw frames on its standard input). The container and codec follow the file's extension
/// (`.mp4`: H.264 where ffmpeg has it; `.y4m`: raw), with 4:2:0 chroma so any player opens it.
///
/// The file appears atomically: ffmpeg writes a hidden, uniquely named file beside it, which
/// ``finish()`` renames into place once ffmpeg has succeeded; a failed or abandoned encoding
/// leaves nothing at the destination.
///
/// Use it from one thread at a time.
public final class VideoEncoder: @unchecked Sendable {
    /// How the frames given to ``write(_:)`` are laid out.
    public enum PixelLayout: String, Sendable {
        /// One byte per pixel, grey.
        case gray
        /// Three bytes per pixel: red, green, blue.
        case rgb24

        /// Bytes per pixel.
        public var bytesPerPixel: Int { self == .gray ? 1 : 3 }
    }

    /// The destination.
    public let path: String
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// The layout of written frames.
    public let layout: PixelLayout
    /// The option or field the destination came from, named in errors.
    public let field: String
    private let child: FFmpegProcess
    private let partialPath: String
    private var isFinished = false

    /// Starts ffmpeg encoding `width × height` frames at `frameRate` into `path`.
    ///
    /// - Throws: ``ConfigurationError`` naming `field` when ffmpeg is missing or cannot start,
    ///   or the size is not positive.
    public init(
        path: String, width: Int, height: Int, frameRate: FrameRate, layout: PixelLayout,
        field: String, ffmpeg: String? = nil
    ) throws(ConfigurationError) {
        func failure(_ problem: String) -> ConfigurationError {
            ConfigurationError(path: field, problem: "\(path): \(problem)")
        }
        guard width > 0, height > 0, frameRate > .zero else {
            throw failure(
                "expected a positive frame size and rate, got \(width)x\(height) at \(frameRate.framesPerSecond)"
            )
        }
        let name = FileSystem.name(of: path)
        let directory = FileSystem.parent(of: path)
        let nameExtension = FileSystem.nameExtension(of: path)
        let suffix = nameExtension.isEmpty ? "" : ".\(nameExtension)"
        try AtomicFile.createDirectories(directory, for: path)
        partialPath = "\(directory)/.\(name).\(ProcessFacts.uniqueName()).partial\(suffix)"
        self.path = path
        self.width = width
        self.height = height
        self.layout = layout
        self.field = field
        let rate = "\(frameRate.framesPerSecond)"
        let child = try FFmpegProcess(
            [
                "-f", "rawvideo", "-pix_fmt", layout.rawValue, "-s", "\(width)x\(height)", "-r",
                rate, "-i", "-", "-pix_fmt", "yuv420p",
            ] + (suffix == ".y4m" ? ["-strict", "-1"] : []) + ["-n", partialPath],
            direction: .writing, executable: ffmpeg, doing: "encoding video", failure: failure)
        self.child = child
    }

    deinit {
        if !isFinished {
            child.closePipe()
            child.stop()
            unlink(partialPath)
        }
    }

    /// Writes one frame (`width × height × layout.bytesPerPixel` bytes), waiting while ffmpeg
    /// catches up.
    ///
    /// - Throws: ``ConfigurationError`` when ffmpeg has stopped reading (its message).
    public func write(_ pixels: [UInt8]) throws(ConfigurationError) {
        precondition(pixels.count == width * height * layout.bytesPerPixel, "frame size")
        let written = pixels.withUnsafeBytes { bytes in
            Self.writeAll(bytes, to: child.descriptor)
        }
        guard written else {
            throw ConfigurationError(
                path: field, problem: "\(path): ffmpeg stopped reading: \(child.errors.text)")
        }
    }

    /// Writes every byte to `descriptor`; false when the reader has gone (EPIPE). SIGPIPE is
    /// blocked on this thread meanwhile, and one raised by the write is taken before the mask
    /// is restored, so a dead ffmpeg is an error here instead of the end of the process.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Ends the stream, waits for ffmpeg and moves the file into place.
    ///
    /// - Throws: ``ConfigurationError`` with ffmpeg's message when it failed.
    public func finish() throws(ConfigurationError) {
        guard !isFinished else { return }
        isFinished = true
        child.closePipe()
        let said = child.finishedErrors()
        let status = child.exitStatus ?? -1
        guard status == 0 else {
            unlink(partialPath)
            throw ConfigurationError(
                path: field,
                problem:
                    "\(path): ffmpeg exited with status \(status): \(said)"
            )
        }
        guard rename(partialPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partialPath)
            throw ConfigurationError(
                path: field, problem: "\(path): cannot move into place: \(reason)")
        }
    }

    /// Writes the frame of `video` at `seconds` as an image to `path` (its extension picks the
    /// format: `.jpg`, `.png`), atomically; returns whether it could.
    public static func extractStill(
        from video: String, atSeconds seconds: Double, to path: String, ffmpeg: String? = nil
    ) -> Bool {
        guard let executable = ffmpeg ?? ExecutableSearch.find("ffmpeg") else { return false }
        let partial =
            "\(FileSystem.parent(of: path))/.\(FileSystem.name(of: path)).\(ProcessFacts.uniqueName()).partial.\(FileSystem.nameExtension(of: path))"
        guard
            let child = try? ChildProcess(
                executable: executable,
                arguments: [
                    "-nostdin", "-hide_banner", "-loglevel", "error", "-ss", seconds.fixed(3),
                    "-i", video, "-frames:v", "1", "-q:v", "3", "-n", partial,
                ])
        else { return false }
        guard child.waitForExit() == 0, rename(partial, path) == 0 else {
            unlink(partial)
            return false
        }
        return true
    }
}
