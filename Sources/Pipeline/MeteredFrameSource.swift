import Capture
import Locking

/// A frame source that counts the CPU time its wrapped source spends drawing: the "readout"
/// share of a calibration measurement (the camera and ISP's part, which the synthetic scene's
/// renderer stands in for).
final class MeteredFrameSource: FrameSource {
    /// The scene drawn (a source that draws without suspending, so that the thread's CPU
    /// time measures its drawing).
    let source: SceneFrameSource
    private let totals = LockedState<(frames: Int, pixels: Int, cpuSeconds: Double)>((0, 0, 0))

    init(_ source: SceneFrameSource) {
        self.source = source
    }

    /// Frames drawn, their pixels, and the thread CPU seconds spent drawing them.
    var drawn: (frames: Int, pixels: Int, cpuSeconds: Double) { totals.withLock { $0 } }

    func render(_ frame: inout Frame) {
        let start = CPUTime.thread()
        source.render(&frame)
        let spent = CPUTime.thread() - start
        let pixels = frame.width * frame.height
        totals.withLock {
            $0.frames += 1
            $0.pixels += pixels
            $0.cpuSeconds += spent
        }
    }
}
