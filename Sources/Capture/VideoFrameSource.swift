import Files
import LaunchTiming
import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Where `headroom run --source` takes its frames from.
public enum VideoInput: Sendable, Hashable, CustomStringConvertible {
    /// A file (or anything else ffmpeg opens by name), decoded by ffmpeg.
    case file(String)
    /// A YUV4MPEG2 stream on standard input (`-`), read directly.
    case standardInput
    /// A V4L2 camera device, such as `/dev/video0`, read through ffmpeg's `v4l2` input.
    case camera(device: String)

    /// The input a `--source` argument names: `-` is standard input, `v4l2:DEVICE` a camera,
    /// anything else a file.
    public init(argument: String) {
        if argument == "-" {
            self = .standardInput
        } else if argument.hasPrefix("v4l2:") {
            self = .camera(device: String(argument.dropFirst(5)))
        } else {
            self = .file(argument)
        }
    }

    /// The argument form: the path, `-`, or `v4l2:DEVICE`.
    public var description: String {
        switch self {
        case .file(let path): path
        case .standardInput: "-"
        case .camera(let device): "v4l2:\(device)"
        }
    }

    /// The ffmpeg arguments that decode this input to YUV4MPEG2 on standard output, 4:2:0 at
    /// full range (`yuvj420p`: its luma is exactly what `-pix_fmt gray` gives, so a detector
    /// sees the same picture with or without colour); `nil` for standard input, which is Y4M
    /// already.
    var decoderArguments: [String]? {
        let output = ["-an", "-sn", "-f", "yuv4mpegpipe", "-pix_fmt", "yuvj420p", "-"]
        switch self {
        case .file(let path):
            return ["-i", path] + output
        case .camera(let device):
            return ["-f", "v4l2", "-i", device] + output
        case .standardInput:
            return nil
        }
    }
}

/// How a video's frames are taken.
public enum VideoPacing: String, Sendable, Hashable, CaseIterable {
    /// At the video's own frame rate, by time: a pipeline slower than the video skips frames,
    /// as it would with a live camera.
    case file
    /// Every frame, one after another, as fast as the session asks for them.
    case max
    /// Every frame, each at its time in the video, waited for: the camera keeps the video's
    /// rate on the session's clock, and a frame not decoded yet is waited for, never skipped.
    /// How a video plays on virtual time, where the clock stands still while the pipeline
    /// works, so that every run of it sees the same frames at the same instants.
    case frameByFrame = "frame-by-frame"
}

/// Frames of a real video: decoded by ffmpeg (a child process writing 4:2:0 YUV4MPEG2 into a
/// pipe) or read as Y4M from standard input (grey or colour), and handed to the capture
/// session one at a time, with their colour when they have it (``Frame/chroma``). Each
/// delivered frame carries its index in the video (``Frame/sourceIndex``).
///
/// A thread of its own reads the pipe, a few frames ahead (``readahead``): the session's frame
/// loop never waits on the pipe, and never blocks a thread of the cooperative pool.
///
/// The video plays once: after its last frame the source is finished (``isFinished``, and
/// ``waitUntilFinished()`` returns once that frame is consumed — frame by frame, once the
/// frame after it is asked for) and repeats that frame. Frames of another size than the
/// session's are scaled (nearest neighbour).
public final class VideoFrameSource: FrameSource {
    /// The input.
    public let input: VideoInput
    /// How frames are taken.
    public let pacing: VideoPacing
    /// The stream's header: the video's size and frame rate.
    public let header: Y4MHeader
    /// The frame rate frames are taken at: the video's, or 30 when it declares none.
    public var frameRate: FrameRate { header.frameRate ?? 30 }
    /// How many decoded frames the reader thread keeps ahead of the frame loop.
    public static let readahead = 4

    private struct State {
        /// The decoder, when ffmpeg decodes (not for standard input).
        var decoder: FFmpegProcess?
        /// The last frame delivered, its index in the video.
        var current: Y4MPicture?
        var index = -1
        /// When the first frame was taken (``VideoPacing/file``), on the session's clock.
        var start: MonotonicInstant?
        /// Frames the reader has read, and whether it has stopped (the end, or a problem).
        var framesRead = 0
        var hasEnded = false
        var problem: String?
        /// The highest index the consumer is done with.
        var acknowledged = -1
        var isEndAnnounced = false
        /// Run when the end is announced (``whenFinished(_:)``).
        var finishing: FinishAction?
    }

    /// What runs when the video is finished (``whenFinished(_:)``).
    public typealias FinishAction = @Sendable () -> Void

    private let state: LockedState<State>
    private let frames = FrameReadahead(capacity: VideoFrameSource.readahead)
    private let finished: Broadcast<Void>
    /// Signalled when the reader thread has stopped.
    private let readerStopped = ThreadSemaphore()

    /// Whether frames come when the consumer is ready (``VideoPacing/max``) — until the video
    /// is finished: its last frame, repeated, comes on the camera's clock.
    public var isSelfPaced: Bool { pacing == .max && !state.withLock { $0.isEndAnnounced } }

    /// Tells the source its consumer is done with the frame of `index` (and all before it).
    /// ``VideoPacing/max`` delivers a frame again until it is acknowledged (a frame delivered
    /// before its output was ready is not lost); the consumer skips a frame it has seen. The
    /// video counts as finished (``waitUntilFinished()``) once its last frame is consumed and
    /// the end is read — frame by frame, when the frame after the last is asked for.
    public func frameConsumed(index: Int) {
        state.withLock { $0.acknowledged = max($0.acknowledged, index) }
        if pacing != .frameByFrame { announceEndIfDue() }
    }

    /// Frame by frame, with capture stopped: announces the end now if the last frame delivered
    /// was consumed and the reader, waited for, has no frame after it — what the next
    /// ``render(_:)`` would have found had capture gone on. So a run whose capture stops
    /// after the video's last frame ends there, not when capture comes back. Nothing for the
    /// other pacings, whose reader announces the end itself.
    public func settleEnd() async {
        guard pacing == .frameByFrame, state.withLock({ $0.index <= $0.acknowledged }) else {
            return
        }
        await frames.untilReady()
        announceEndIfDue()
    }

    /// Runs `action` the moment the video is finished, on the thread that finishes it (frame
    /// by frame the frame loop's, or ``settleEnd()``'s caller: it must be quick and never
    /// block) and before
    /// ``waitUntilFinished()`` returns anywhere; at once when it is finished already. One
    /// action: a later call replaces an earlier one. A run halts its clock here: frame by
    /// frame, the end comes in the frame loop at the instant the next frame was due, so on
    /// virtual time the run ends at the same instant however late its waiter wakes.
    public func whenFinished(_ action: @escaping FinishAction) {
        let isAnnounced = state.withLock { state in
            if !state.isEndAnnounced { state.finishing = action }
            return state.isEndAnnounced
        }
        if isAnnounced { action() }
    }

    /// Opens `input`: starts ffmpeg for a file or camera (`ffmpeg` is looked up in `PATH`
    /// unless `ffmpeg` names it), reads the stream's header and starts the reader thread.
    ///
    /// - Throws: ``ConfigurationError`` naming the source and what is wrong: no ffmpeg, a
    ///   file ffmpeg cannot read (with ffmpeg's own message), a stream that is not YUV4MPEG2.
    public init(input: VideoInput, pacing: VideoPacing = .file, ffmpeg: String? = nil)
        throws(ConfigurationError)
    {
        self.input = input
        self.pacing = pacing
        let field = "--source"
        func failure(_ problem: String) -> ConfigurationError {
            ConfigurationError(path: field, problem: "\(input): \(problem)")
        }
        var child: FFmpegProcess?
        let descriptor: Int32
        if let arguments = input.decoderArguments {
            if case .file(let path) = input, !path.includes("://") {
                guard FileSystem.isReadable(path) else {
                    throw failure("no such readable file")
                }
            }
            let started = try FFmpegProcess(
                arguments, direction: .reading, executable: ffmpeg, doing: "decoding video",
                failure: failure)
            child = started
            descriptor = started.descriptor
            // Let ffmpeg decode ahead by a few frames instead of one pipe's 64 KiB.
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, <linux/fcntl.h>
            _ = fcntl(descriptor, setPipeSize, 1 << 20)
        } else {
            descriptor = STDIN_FILENO
        }
        var stream = Y4MStream(descriptor: descriptor)
        do {
            header = try stream.readHeader()
        } catch {
            let said = child?.finishedErrors() ?? ""
            throw failure(said.isEmpty ? error.problem : "ffmpeg: \(said)")
        }
        state = LockedState(State(decoder: child))
        finished = Broadcast()
        let reading = stream
        DetachedThread.start(name: "headroom-video") { [self] in read(reading) }
    }

    deinit { close() }

    /// Whether the video has no more frames (or could not be read further).
    public var isFinished: Bool { state.withLock { $0.hasEnded } }

    /// Why reading stopped before the end of the video, if it did: a truncated frame, or
    /// ffmpeg's error message.
    public var problem: String? { state.withLock { $0.problem } }

    /// Frames read from the video so far (including those skipped by time).
    public var framesRead: Int { state.withLock { $0.framesRead } }

    /// Returns once the video has no more frames and its last one has been consumed
    /// (``frameConsumed(index:)``); frame by frame, once the frame after the last was asked
    /// for (``render(_:)``), on the session's clock.
    public func waitUntilFinished() async {
        for await _ in finished.subscribe() {}
    }

    /// Stops reading: ffmpeg is terminated — killed if it has not gone within two seconds —
    /// and reaped, the reader thread (which then reads the end of the pipe) is waited for, and
    /// only then is the pipe closed, so no read can meet a descriptor number reused meanwhile.
    /// Standard input is left open (its reader stops at its end).
    public func close() {
        frames.close()
        let decoder = state.withLock { state -> FFmpegProcess? in
            defer { state.decoder = nil }
            return state.decoder
        }
        guard let decoder else { return }
        decoder.stop()
        readerStopped.wait()
        // Once, through the process that owns the descriptor: a number closed twice may by
        // then be a file the run had just opened (seen in CI: run.json "Bad file descriptor"
        // after SIGTERM).
        decoder.closePipe()
    }

    /// Draws the video's frame for `frame`: the frame due at its timestamp
    /// (``VideoPacing/file``: the reader's latest up to it, never waiting) or the next one
    /// (``VideoPacing/max`` and ``VideoPacing/frameByFrame``: suspending until the reader has
    /// it), scaled to the frame's size.
    public func render(_ frame: inout Frame) async {
        switch pacing {
        case .max, .frameByFrame:
            let isPending = state.withLock { $0.index > $0.acknowledged }
            // A frame delivered but not consumed (its output was not ready) goes again.
            if !isPending, let next = await frames.next() { take(next) }
        case .file:
            let now = frame.timestamp
            let target = state.withLock { state in
                let start = state.start ?? now
                state.start = start
                return max(state.index + 1, Int(frameRate.frames(in: now.duration(since: start))))
            }
            // The reader skips what is older; what it has not reached yet is not waited for.
            frames.want(from: target)
            if let latest = frames.latest(upTo: target) { take(latest) }
        }
        announceEndIfDue()
        let (picture, index) = state.withLock { ($0.current, $0.index) }
        frame.sourceIndex = index >= 0 ? index : nil
        guard let picture else { return }
        LumaScaling.scale(
            picture.luma, width: header.width, height: header.height, into: &frame.luma,
            width: frame.width, height: frame.height)
        frame.chroma = picture.chroma.map {
            LumaScaling.scale($0, toFrameWidth: frame.width, height: frame.height)
        }
    }

    /// Makes `decoded` the current frame.
    private func take(_ decoded: FrameReadahead.Decoded) {
        state.withLock { state in
            state.current = decoded.picture
            state.index = decoded.index
        }
    }

    /// Announces the end if it is due: the video is over, every frame read has been delivered,
    /// and the last has been consumed (so a run that ends on the announcement has seen every
    /// frame). The ``whenFinished(_:)`` action runs first, then the waiters wake.
    private func announceEndIfDue() {
        let (ends, action) = state.withLock { state in
            guard state.hasEnded, frames.isDrained, state.acknowledged >= state.index,
                !state.isEndAnnounced
            else { return (false, nil as FinishAction?) }
            state.isEndAnnounced = true
            defer { state.finishing = nil }
            return (true, state.finishing)
        }
        guard ends else { return }
        action?()
        finished.close()
    }

    /// The reader thread: reads frames into the readahead until the stream ends, cannot be
    /// read, or the source is closed.
    private func read(_ stream: Y4MStream) {
        var stream = stream
        var index = 0
        defer { readerStopped.signal() }
        while true {
            var problem: String?
            var next: Y4MPicture?
            do throws(Y4MHeader.Problem) {
                next = try stream.readFrame(header: header)
            } catch {
                problem = error.problem
            }
            guard let picture = next else {
                state.withLock { state in
                    let said = state.decoder?.errors.text ?? ""
                    state.problem = said.isEmpty ? problem : "ffmpeg: \(said)"
                    state.hasEnded = true
                }
                frames.end()
                // Frame by frame, the end is the frame loop's to find, on its clock.
                if pacing != .frameByFrame { announceEndIfDue() }
                return
            }
            state.withLock { $0.framesRead = index + 1 }
            defer { index += 1 }
            guard frames.wants(index) else { continue }
            guard frames.put(FrameReadahead.Decoded(index: index, picture: picture)) else { return }
        }
    }
}

/// Reads a YUV4MPEG2 stream from a file descriptor: the header, then one frame at a time.
struct Y4MStream {
    /// The descriptor read from; -1 once its owner closed it.
    var descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads until `count` bytes are buffered or the stream ends; returns whether they are.
    private mutating func fill(_ count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while buffer.count < count {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<got])
        }
        return true
    }

    /// The next line, without its newline; `nil` at the end of the stream. Lines are at most
    /// 4 KiB (headers and FRAME lines are short).
    private mutating func readLine() -> [UInt8]? {
        var searched = 0
        while true {
            if let end = buffer[searched...].firstIndex(of: 0x0A) {
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                return line
            }
            searched = buffer.count
            guard searched < 4096, fill(searched + 1) else { return nil }
        }
    }

    mutating func readHeader() throws(Y4MHeader.Problem) -> Y4MHeader {
        guard let line = readLine() else {
            throw Y4MHeader.Problem(problem: "expected a YUV4MPEG2 stream, got no data")
        }
        return try Y4MHeader(line: line)
    }

    /// The next frame's luma and colour; `nil` at the end of the stream.
    mutating func readFrame(header: Y4MHeader) throws(Y4MHeader.Problem) -> Y4MPicture? {
        guard let line = readLine() else { return nil }
        guard line.starts(with: Array("FRAME".utf8)) else {
            throw Y4MHeader.Problem(problem: "expected a FRAME line")
        }
        guard fill(header.frameBytes) else {
            throw Y4MHeader.Problem(
                problem: "truncated frame: expected \(header.frameBytes) bytes")
        }
        let picture = Y4MPicture(
            luma: Array(buffer[0..<(header.width * header.height)]),
            chroma: header.chroma(of: buffer[0..<header.frameBytes]))
        buffer.removeFirst(header.frameBytes)
        return picture
    }
}

/// One frame of a YUV4MPEG2 stream: its luma and, when the stream has colour, its chroma as
/// 4:2:0.
struct Y4MPicture: Sendable {
    /// `width × height` luma bytes.
    var luma: [UInt8]
    /// The colour; `nil` for a grey stream.
    var chroma: ChromaPlanes?
}
