import Capture

/// One configuration calibration runs: a camera of `width × height` pixels at `frameRate`
/// frames per second feeding the tracking pipeline (a `videoData` output).
///
/// The synthetic camera draws exactly the frames it delivers, so its format is marked cropped:
/// the estimator's readout factor for it is 1, no binning or full-sensor scaling.
public struct CalibrationPoint: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Frame width in pixels, > 0.
    public var width: Int
    /// Frame height in pixels, > 0.
    public var height: Int
    /// Frames per second, > 0.
    public var frameRate: Double

    /// A configuration of `width × height` pixels at `frameRate` frames per second.
    public init(width: Int, height: Int, frameRate: Double) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    /// Pixels per frame.
    public var pixelsPerFrame: Int { width * height }

    /// `1280×720 @ 30 fps`.
    public var description: String {
        let rate =
            frameRate == frameRate.rounded() && frameRate < 1e6
            ? String(Int(frameRate)) : String(frameRate)
        return "\(width)×\(height) @ \(rate) fps"
    }

    /// The camera format: cropped NV12, with `frameRate` as its maximum.
    public var format: CameraFormat {
        CameraFormat(
            width: width, height: height, maxFrameRate: frameRate, pixelFormat: .nv12,
            isCropped: true)
    }

    /// The capture session this point runs, priced on `profile`, at `frameRate` frames per
    /// second (by default the point's own; calibration prices held-out points at the rate
    /// actually delivered).
    public func session(profile: String, frameRate: Double? = nil) -> SessionConfiguration {
        SessionConfiguration(
            profile: profile,
            cameras: [
                CameraConfiguration(
                    id: "calibration", format: format,
                    frameRateOverride: frameRate.map { min($0, self.frameRate) })
            ],
            outputs: [CaptureOutput(kind: .videoData)])
    }
}
