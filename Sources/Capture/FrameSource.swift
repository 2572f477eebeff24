/// Where a capture session's pixels come from: a camera driver, a synthetic scene, a file.
///
/// The session owns pacing, timestamps and delivery; a source only draws. It is called from the
/// session's frame loop (a task of the cooperative pool), one frame at a time per camera, and
/// must never block a thread: a source that reads (a video's pipe) reads on a thread of its own
/// and suspends here until a frame is there.
public protocol FrameSource: Sendable {
    /// Draws the frame numbered `frame.number` of camera `frame.camera`, taken at
    /// `frame.timestamp`, into `frame.luma` (`frame.width × frame.height` bytes, already
    /// allocated).
    func render(_ frame: inout Frame) async

    /// Whether the source delivers each frame when it is ready rather than on the camera's
    /// clock (a video played as fast as its consumer goes): while a consumer takes its frames
    /// the session neither waits between them nor skips late ones, and ``render(_:)`` may
    /// suspend until the frame is read. It may change: a source with nothing new to give (a
    /// video played to its end) says `false`, and the session goes back to the camera's clock
    /// rather than deliver the same picture as fast as it can.
    var isSelfPaced: Bool { get }
}

extension FrameSource {
    /// Sources draw on the camera's clock unless they say otherwise.
    public var isSelfPaced: Bool { false }
}

/// A generated test pattern: a diagonal gradient that moves by ``step`` levels per frame, so
/// every frame differs and its number can be told from its pixels (``value(x:y:frame:)``).
public struct PatternFrameSource: FrameSource {
    /// How far the gradient moves per frame, in luma levels.
    public var step: Int

    /// A pattern moving `step` levels per frame.
    public init(step: Int = 3) {
        self.step = step
    }

    /// The luma the pattern has at pixel (`x`, `y`) of frame number `frame`.
    public func value(x: Int, y: Int, frame: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: x &+ y &+ frame &* step)
    }

    /// Draws the gradient for `frame.number`.
    public func render(_ frame: inout Frame) {
        let width = frame.width
        let height = frame.height
        let shift = frame.number &* step
        frame.luma.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let row = y * width
                let base = y &+ shift
                for x in 0..<width {
                    pixels[row + x] = UInt8(truncatingIfNeeded: base &+ x)
                }
            }
        }
    }
}
