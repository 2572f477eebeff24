import Files
import Units

/// One camera in a capture session: which format it runs and at what frame rate.
public struct CameraConfiguration: Hashable, Codable, Sendable {
    /// The camera's identifier, unique within the session (`back`, `front`, `stand`).
    public var id: String
    /// The mode the camera runs.
    public var format: CameraFormat
    /// A frame rate below the format's maximum, in frames per second; `nil` runs at the maximum.
    public var frameRateOverride: FrameRate?
    /// The name of the profile's sensor this camera is, whose formats the planner may switch
    /// between; `nil` finds the sensor that offers ``format``.
    public var sensor: String?

    /// Creates a camera; `frameRateOverride` is in frames per second.
    public init(
        id: String, format: CameraFormat, frameRateOverride: FrameRate? = nil, sensor: String? = nil
    ) {
        self.id = id
        self.format = format
        self.frameRateOverride = frameRateOverride
        self.sensor = sensor
    }

    /// The frame rate the hardware runs and the session pays for: the override when there is
    /// one, otherwise the format's maximum (as `AVCaptureSession.hardwareCost` does).
    public var frameRate: FrameRate { frameRateOverride ?? format.maxFrameRate }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, format, frameRateOverride, sensor
    }

    /// Decodes and validates a camera: a non-empty id and an override within the format's range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        format = try container.decode(CameraFormat.self, forKey: .format)
        frameRateOverride = try container.decodeIfPresent(
            FrameRate.self, forKey: .frameRateOverride)
        sensor = try container.decodeIfPresent(String.self, forKey: .sensor)
        guard !id.isEmpty else {
            throw decoder.invalidValue(CodingKeys.id, "expected a non-empty camera id")
        }
        if let frameRateOverride, !format.supports(frameRate: frameRateOverride) {
            throw decoder.invalidValue(
                CodingKeys.frameRateOverride,
                "expected a frame rate from the format's minFrameRate"
                    + " (\(formattedFrameRate(format.minFrameRate))) to its maxFrameRate"
                    + " (\(formattedFrameRate(format.maxFrameRate))), got \(formattedFrameRate(frameRateOverride))"
            )
        }
    }
}
