import Capture
import Units

/// One configuration calibration runs: ``cameras`` cameras of `width × height` pixels at
/// `frameRate` frames per second each, feeding the tracking pipeline (a `videoData` output).
///
/// The synthetic camera draws exactly the frames it delivers, so its format is marked cropped:
/// the estimator's readout factor for it is 1, no binning or full-sensor scaling.
public struct CalibrationPoint: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Frame width in pixels, > 0.
    public var width: Int
    /// Frame height in pixels, > 0.
    public var height: Int
    /// The frame rate of each camera, > 0.
    public var frameRate: FrameRate
    /// How many such cameras run at once, ≥ 1.
    public var cameras: Int

    /// A configuration of `cameras` cameras of `width × height` pixels at `frameRate` frames
    /// per second.
    public init(width: Int, height: Int, frameRate: FrameRate, cameras: Int = 1) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.cameras = max(1, cameras)
    }

    /// Pixels per frame of one camera.
    public var pixelsPerFrame: Int { width * height }

    /// `1280×720 @ 30 fps`, `2 × 640×360 @ 15 fps`.
    public var description: String {
        let fps = frameRate.framesPerSecond
        let rate = fps == fps.rounded() && fps < 1e6 ? String(Int(fps)) : String(fps)
        return "\(cameras > 1 ? "\(cameras) × " : "")\(width)×\(height) @ \(rate) fps"
    }

    /// The camera format: cropped NV12, with `frameRate` as its maximum.
    public var format: CameraFormat {
        CameraFormat(
            width: width, height: height, maxFrameRate: frameRate, pixelFormat: .nv12,
            isCropped: true)
    }

    /// The capture session this point runs, priced on `profile`, each camera at `frameRate`
    /// frames per second (by default the point's own; calibration prices held-out points at
    /// the rate actually delivered). Each camera feeds a `videoData` output.
    public func session(profile: String, frameRate: FrameRate? = nil) -> SessionConfiguration {
        let ids = (1...cameras).map { "calibration-\($0)" }
        return SessionConfiguration(
            profile: profile,
            cameras: ids.map { id in
                CameraConfiguration(
                    id: id, format: format,
                    frameRateOverride: frameRate.map {
                        min($0, self.frameRate)
                    })
            },
            outputs: ids.map { CaptureOutput(kind: .videoData, camera: $0) })
    }
}
