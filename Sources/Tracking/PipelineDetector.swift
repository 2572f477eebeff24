/// The detectors the pipeline runs, by name (`headroom run --detector`).
public enum DetectorKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// ``BlobDetector``: bright regions of similar grey, for the rendered scene.
    case blob
    /// ``MotionDetector``: what moves against a learned background, for real footage.
    case motion
}

/// One of the pipeline's detectors, with the scale knob the governor turns on either.
public enum PipelineDetector: Detector, Sendable {
    /// The rendered scene's detector.
    case blob(BlobDetector)
    /// The real footage's detector.
    case motion(MotionDetector)

    /// A detector of `kind` at `scale`.
    public init(_ kind: DetectorKind, scale: Double) {
        switch kind {
        case .blob: self = .blob(BlobDetector(scale: scale))
        case .motion: self = .motion(MotionDetector(scale: scale))
        }
    }

    /// Which detector this is.
    public var kind: DetectorKind {
        switch self {
        case .blob: .blob
        case .motion: .motion
        }
    }

    /// The downsampling factor the detector works at, in (0, 1].
    public var scale: Double {
        get {
            switch self {
            case .blob(let detector): detector.scale
            case .motion(let detector): detector.scale
            }
        }
        set {
            switch self {
            case .blob(var detector):
                detector.scale = newValue
                self = .blob(detector)
            case .motion(var detector):
                detector.scale = newValue
                self = .motion(detector)
            }
        }
    }

    /// Detections in the frame's pixel coordinates.
    public mutating func detect(in frame: GrayFrame) -> [Detection] {
        switch self {
        case .blob(var detector):
            let detections = detector.detect(in: frame)
            self = .blob(detector)
            return detections
        case .motion(var detector):
            // Drop this enum's reference first, so the background model is updated in place
            // rather than copied on write every frame.
            self = .blob(BlobDetector())
            let detections = detector.detect(in: frame)
            self = .motion(detector)
            return detections
        }
    }
}
