import Storage
import Units

/// How a movie output records: YUV4MPEG2 (Y4M), 4:2:0 planar at full range, which every player
/// and ffmpeg read. Each frame is written as its luma plane followed by its two chroma planes
/// (``Frame/chroma``: a video's colour), or by neutral chroma for a grey frame (the rendered
/// scene); every frame has the same length, which is what lets an interrupted recording be cut
/// back to its last whole frame.
public struct MovieFormat: Equatable, Sendable {
    /// Picture width in pixels.
    public var width: Int
    /// Picture height in pixels.
    public var height: Int
    /// The frame rate the header declares, frames per second.
    public var frameRate: FrameRate

    /// A movie of `width × height` pictures at `frameRate`.
    public init(width: Int, height: Int, frameRate: FrameRate) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    /// The format a movie output of `camera` records in: the camera's size and frame rate.
    public init(camera: CameraConfiguration) {
        self.init(
            width: camera.format.width, height: camera.format.height, frameRate: camera.frameRate)
    }

    /// The stream header: `YUV4MPEG2 W960 H540 F30:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL` and a
    /// newline. The range is said, as ffmpeg says it: without it a reader takes the samples
    /// for TV range (16–235) and stretches them.
    public var header: [UInt8] {
        Array(
            "YUV4MPEG2 W\(width) H\(height) F\(rateFraction) Ip A1:1 C420jpeg XCOLORRANGE=FULL\n"
                .utf8)
    }

    /// What precedes each frame's planes.
    public static let framePrefix = Array("FRAME\n".utf8)

    /// The two chroma planes of a grey picture (Cb and Cr at 128), written after a grey
    /// frame's luma plane.
    public var neutralChroma: [UInt8] {
        [UInt8](repeating: 128, count: chromaBytes)
    }

    /// Bytes of the two chroma planes of a frame (counted, not built).
    public var chromaBytes: Int { 2 * ((width + 1) / 2) * ((height + 1) / 2) }

    /// Bytes of one frame in the file, its `FRAME` line included.
    public var bytesPerFrame: Int { Self.framePrefix.count + width * height + chromaBytes }

    /// The recording's layout, for the writer and for recovery.
    public var layout: RecordingLayout {
        RecordingLayout(headerBytes: Int64(header.count), unitBytes: Int64(bytesPerFrame))
    }

    /// The data rate of a recording at `frameRate`.
    public var dataRate: DataRate {
        DataRate(bytesPerSecond: Double(bytesPerFrame) * frameRate.framesPerSecond)
    }

    /// The frame rate as Y4M's `N:D`: `30:1`, `30000:1001` for 29.97.
    var rateFraction: String {
        let rate = frameRate.framesPerSecond
        if rate == rate.rounded() { return "\(Int(rate)):1" }
        let ntsc = (rate * 1.001).rounded()
        if abs(ntsc / 1.001 - rate) < 1e-3 { return "\(Int(ntsc) * 1000):1001" }
        return "\(Int((rate * 1000).rounded())):1000"
    }
}
