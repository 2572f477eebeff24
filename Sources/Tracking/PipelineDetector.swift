import FoundationEssentials
import Units

/// The detectors the pipeline runs, by name (`headroom run --detector`).
public enum DetectorKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// ``BlobDetector``: bright regions of similar grey, for the rendered scene.
    case blob
    /// ``MotionDetector``: what moves against a learned background, for real footage.
    case motion
    /// ``HOGDetector``: OpenCV's HOG people detector, for real footage of people.
    case hog
    /// ``SSDPersonDetector``: the neural person detector (SSDLite-MobileNetV2 through OpenCV's
    /// DNN module), for real footage of people; its model is installed by
    /// `scripts/person-model.sh`.
    case personSSD = "person-ssd"

    /// The detector real video gets unless one is named: the neural person detector where its
    /// model is installed (``PersonModel/installed(environment:)``), else HOG, which needs no
    /// model file.
    public static func forVideo(environment: [String: String]) -> DetectorKind {
        (try? PersonModel.installed(environment: environment)) != nil ? .personSSD : .hog
    }

    /// Whether the detector's work per pixel grows with the frame's size (HOG's pyramid of
    /// 64×128 windows: a frame shorter than the window costs almost nothing), so that its cost
    /// is measured at the sizes it runs at, not at smaller ones.
    public var workPerPixelGrowsWithSize: Bool { self == .hog }

    /// Whether the detector's work is set by an input of fixed size, whatever the frame's (the
    /// neural detector resizes every frame to its network's input): it costs per frame, not
    /// per pixel, and `calibrate` measures it so (the profile's `videoDataFrameShare`).
    public var hasFixedInput: Bool { self == .personSSD }

    /// The detector's inference ladder, heaviest first (``Detector/inferenceLadder``): what
    /// the governor sheds through when this detector runs.
    public var inferenceLadder: [InferenceSetting] {
        switch self {
        case .blob: BlobDetector.inferenceLadder
        case .motion: MotionDetector.inferenceLadder
        case .hog: HOGDetector.inferenceLadder
        case .personSSD: SSDPersonDetector.inferenceLadder
        }
    }

    /// The quality measured at the detector's rungs (``Detector/rungQuality``).
    public var rungQuality: [InferenceSetting: Double] {
        switch self {
        case .blob: BlobDetector.rungQuality
        case .motion: MotionDetector.rungQuality
        case .hog: HOGDetector.rungQuality
        case .personSSD: SSDPersonDetector.rungQuality
        }
    }

    /// The look each detection carries to the tracker. The rendered scene's people are told
    /// apart by band looks, tuned with them. On real footage band looks cost identities: over
    /// OpenCV's `vtest.avi` (795 frames) 245 identities with them against 73 without (motion)
    /// and 83 against 31 (HOG), the same person's bands varying more than the scene's gates
    /// allow. The neural detector's people are told apart by the colours of their clothes
    /// (``ColourHistogram``), judged against the sequence's published ground truth
    /// (``trackerConfiguration``); motion and HOG go by motion alone.
    public var appearanceStyle: AppearanceStyle? {
        switch self {
        case .blob: .bands
        case .motion, .hog: nil
        case .personSSD: .colourHistogram
        }
    }

    /// The tracker's settings for this detector's boxes and scores: ByteTrack's defaults,
    /// except for the neural person detector. ByteTrack keeps boxes under 0.5 for a second
    /// stage that only continues tracks still held, since a detector's unsure boxes are mostly
    /// false; this one's are people half hidden by someone else (at its threshold of 0.2 it drew
    /// no false box on the people counted in `vtest.avi`), and its sigmoid scores spread evenly
    /// over 0.2...1 (each tenth holds 10–16 % of its boxes; HOG's sit in 0.5...0.8). So every
    /// box it reports takes part in the first stage, and a track, born from a box at least 0.6
    /// sure as ever, is confirmed after three frames in a row, not two (a half-hidden person's
    /// flicker otherwise starts short-lived identities).
    ///
    /// Its looks are colour histograms, whose distances are on another scale than band looks':
    /// on the published ground-truth boxes of `vtest.avi` (PETS 2009 S2L1) the same person
    /// five frames apart is within 0.16 nine times in ten, two people in one frame are
    /// further than 0.22 nine times in ten. Pairs further apart than 0.2 are never associated,
    /// and a lost identity is taken up again within 0.15. The change a settled look takes in
    /// stays at 0.05, as for band looks: with twice a track's own variation from view to view
    /// allowed, most views of a person still teach it, and 0.1 and 0.2 scored lower. Scored
    /// by TrackEval against that
    /// ground truth (`scripts/vtest-quality.sh`, docs/run.md), looks took the run from 58
    /// identities to 32, HOTA from 0.258 to 0.299 and IDF1 from 0.360 to 0.419.
    ///
    /// A lost identity is taken up again by its look only while motion could still recover
    /// it (``TrackerConfiguration/reidentificationFrames`` = ``TrackerConfiguration/maximumLostFrames``,
    /// ByteTrack's 30): a histogram of clothes' colours tells apart the people of one moment,
    /// not a crowd in dark coats over minutes. With regions on `vtest.avi`, every identity the
    /// gallery gave back after more than 60 frames went to someone else (7 of 7), and HOTA was
    /// 0.476 with the gallery kept for 9,000 frames, 0.522 with it closed at 30 (0.491 at 20,
    /// 0.523 at 45, 0.487 at 60, both windows moved together: single identities swing it).
    public var trackerConfiguration: TrackerConfiguration {
        var configuration = TrackerConfiguration()
        if self == .personSSD {
            configuration.highConfidence = SSDPersonDetector.defaultScoreThreshold
            configuration.confirmationHits = 3
            configuration.appearanceGate = ColourHistogram.sameLookLimit
            configuration.reidentificationDistance = ColourHistogram.reidentificationLimit
            configuration.reidentificationFrames = configuration.maximumLostFrames
        }
        return configuration
    }
}

/// One of the pipeline's detectors, with the scale knob the governor turns on either.
public enum PipelineDetector: Detector, Sendable {
    /// The rendered scene's detector.
    case blob(BlobDetector)
    /// The real footage's detector of anything that moves.
    case motion(MotionDetector)
    /// The real footage's people detector.
    case hog(HOGDetector)
    /// The real footage's neural person detector.
    case personSSD(SSDPersonDetector)

    /// A detector of `kind` at `scale` (and, for the neural detector, looking at `regions`
    /// regions a frame; 0: the whole frame); the neural detector reads `personModel`, which
    /// its caller found (``PersonModel/installed(environment:)``): a library looks nothing up.
    ///
    /// - Throws: ``HOGUnavailableError`` when OpenCV cannot set up the HOG detector,
    ///   ``PersonModelError`` when the neural detector has no model or cannot read it.
    public init(
        _ kind: DetectorKind, scale: Double, regions: Int = 0, personModel: PersonModel? = nil
    ) throws {
        switch kind {
        case .blob: self = .blob(BlobDetector(scale: scale))
        case .motion: self = .motion(MotionDetector(scale: scale))
        case .hog: self = .hog(try HOGDetector(scale: scale))
        case .personSSD:
            guard let personModel else {
                throw PersonModelError(
                    "the person detector was given no model; install it with"
                        + " \(PersonModel.installCommand)")
            }
            self = .personSSD(
                try SSDPersonDetector(model: personModel, scale: scale, regions: regions))
        }
    }

    /// Which detector this is.
    public var kind: DetectorKind {
        switch self {
        case .blob: .blob
        case .motion: .motion
        case .hog: .hog
        case .personSSD: .personSSD
        }
    }

    /// What kept the detector from seeing frames, if anything did, with how many: for the
    /// run's notes (the neural detector's network that could not be read at a new size).
    public var problem: String? {
        guard case .personSSD(let detector) = self, let failure = detector.failure else {
            return nil
        }
        return "the person detector saw nothing in \(detector.framesUnseen) frame(s): \(failure)"
    }

    /// The network's runs so far (one a region the neural detector looked at); nil for a
    /// detector without a network, whose work is a call a frame.
    public var networkCalls: Int? {
        guard case .personSSD(let detector) = self else { return nil }
        return detector.networkCalls
    }

    /// Runs at `setting`'s scale and, for the neural detector, its region budget, from the
    /// next frame on (the stride is the caller's).
    public mutating func apply(_ setting: InferenceSetting) {
        scale = setting.scale
        guard case .personSSD(var detector) = self else { return }
        self = .blob(BlobDetector())
        detector.regions = setting.regions
        self = .personSSD(detector)
    }

    /// The look each detection carries to the tracker: ``DetectorKind/appearanceStyle``.
    public var appearanceStyle: AppearanceStyle? { kind.appearanceStyle }

    /// The downsampling factor the detector works at, in (0, 1].
    public var scale: Double {
        get {
            switch self {
            case .blob(let detector): detector.scale
            case .motion(let detector): detector.scale
            case .hog(let detector): detector.scale
            case .personSSD(let detector): detector.scale
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
            case .hog(var detector):
                detector.scale = newValue
                self = .hog(detector)
            case .personSSD(var detector):
                detector.scale = newValue
                self = .personSSD(detector)
            }
        }
    }

    /// Detections in the frame's pixel coordinates.
    public mutating func detect(in frame: GrayFrame) -> [Detection] {
        detect(in: frame, expecting: [])
    }

    /// Detections in the frame's pixel coordinates; the neural detector looking at regions
    /// looks around `expected` (the tracker's people).
    public mutating func detect(in frame: GrayFrame, expecting expected: [BoundingBox])
        -> [Detection]
    {
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
        case .hog(var detector):
            return detector.detect(in: frame)
        case .personSSD(var detector):
            // As for motion: the search's background model is updated in place.
            self = .blob(BlobDetector())
            let detections = detector.detect(in: frame, expecting: expected)
            self = .personSSD(detector)
            return detections
        }
    }
}
