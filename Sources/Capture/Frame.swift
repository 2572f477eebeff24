import LaunchTiming
import Units

/// One frame delivered by a capture session: its luminance plane, its colour when its source
/// has colour, and when it was captured.
///
/// Frames carry the luma (Y) plane, 8 bits per pixel, row-major without padding; that is what
/// previews, detectors and the photo pipeline here read. A video in colour also gives its
/// chroma (``chroma``, 4:2:0), which the tracker's looks and the annotated video use. Pixels
/// are copy-on-write arrays, so keeping a frame (in the ring of recent frames, in a photo)
/// costs no copy.
public struct Frame: Sendable {
    /// The camera that produced it.
    public var camera: String
    /// Its position in the camera's stream, from 0.
    public var number: Int
    /// When it was captured, on the monotonic clock.
    public var timestamp: MonotonicInstant
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width × height` luminance values, row after row.
    public var luma: [UInt8]
    /// The frame's colour, when its source has colour (a video in colour); `nil` for grey
    /// frames (the rendered scene, a grey video).
    public var chroma: ChromaPlanes?
    /// The frame's index in its source (a video file's frame number, from 0), when the
    /// source has such numbers; a live pipeline skips some when it falls behind.
    public var sourceIndex: Int?

    /// A black frame of `width × height` pixels.
    public init(camera: String, number: Int = 0, width: Int, height: Int) {
        self.camera = camera
        self.number = number
        self.timestamp = MonotonicInstant(nanoseconds: 0)
        self.width = width
        self.height = height
        self.luma = [UInt8](repeating: 0, count: width * height)
    }
}

extension Frame {
    /// A frame drawing into `buffer` when it has the right size (taking it, so the caller's
    /// copy is emptied), else into a new buffer.
    init(camera: String, number: Int, width: Int, height: Int, reusing buffer: inout [UInt8]) {
        self.camera = camera
        self.number = number
        self.timestamp = MonotonicInstant(nanoseconds: 0)
        self.width = width
        self.height = height
        if buffer.count == width * height {
            self.luma = buffer
            buffer = []
        } else {
            self.luma = [UInt8](repeating: 0, count: width * height)
        }
    }
}
