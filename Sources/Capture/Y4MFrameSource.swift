import Files

/// Frames from a YUV4MPEG2 (`.y4m`) file, looped: the luma plane of each frame, scaled
/// (nearest neighbour) to the session's frame size when the sizes differ.
///
/// The whole file is read at creation, so rendering never touches the disk. Supported colour
/// spaces are the planar 8-bit ones: `C420`, `C420jpeg` (the default), `C420paldv`,
/// `C420mpeg2`, `C422`, `C444` and `Cmono`.
public struct Y4MFrameSource: FrameSource {
    /// The file's frame width in pixels.
    public let width: Int
    /// The file's frame height in pixels.
    public let height: Int
    /// The luma plane of each frame in the file, in order.
    public let frames: [[UInt8]]

    /// The largest file read: every frame is kept in memory.
    public static let maximumFileSize = 1 << 30

    /// Reads the Y4M file at `path` (at most ``maximumFileSize`` bytes).
    ///
    /// - Throws: ``ConfigurationError`` naming the file and what is wrong (no such file, not a
    ///   YUV4MPEG2 header, an unsupported colour space, a truncated frame, no frames).
    public init(path: String) throws(ConfigurationError) {
        try self.init(data: InputFile.read(path, limit: Self.maximumFileSize), file: path)
    }

    /// Parses Y4M `data`; `file` names it in errors.
    public init(data: some Sequence<UInt8>, file: String? = nil) throws(ConfigurationError) {
        let bytes = Array(data)
        func failure(_ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, path: "", problem: problem)
        }
        guard let headerEnd = bytes.firstIndex(of: 0x0A) else {
            throw failure("expected a YUV4MPEG2 header line")
        }
        let header: Y4MHeader
        do {
            header = try Y4MHeader(line: bytes[..<headerEnd])
        } catch {
            throw failure(error.problem)
        }
        let (width, height, chroma) = (header.width, header.height, header.chromaBytes)
        let luma = width * height
        var frames: [[UInt8]] = []
        var offset = headerEnd + 1
        while offset < bytes.count {
            guard let lineEnd = bytes[offset...].firstIndex(of: 0x0A),
                bytes[offset..<lineEnd].starts(with: Array("FRAME".utf8))
            else { throw failure("frame \(frames.count): expected a FRAME line") }
            let start = lineEnd + 1
            guard start + luma + chroma <= bytes.count else {
                throw failure("frame \(frames.count): truncated, expected \(luma + chroma) bytes")
            }
            frames.append(Array(bytes[start..<(start + luma)]))
            offset = start + luma + chroma
        }
        guard !frames.isEmpty else { throw failure("expected at least one frame") }
        self.width = width
        self.height = height
        self.frames = frames
    }

    /// Draws file frame `frame.number` modulo the frame count, scaled to the frame's size.
    public func render(_ frame: inout Frame) {
        LumaScaling.scale(
            frames[frame.number % frames.count], width: width, height: height,
            into: &frame.luma, width: frame.width, height: frame.height)
    }
}
