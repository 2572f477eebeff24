import COpenCV
import Locking
import Units

/// The neural person detector: an SSDLite-MobileNetV2 trained on people (``PersonModel``),
/// run by OpenCV's DNN module on the frame's luma copied into three channels: on regions of the
/// frame each resized onto 300 × 300 (``regions``, the ladder's top rung: the far people
/// enlarged, see ``RegionSearch``), or on the whole frame resized to the network's input.
///
/// The governor's knob is the input size (``scale``): 1 is 300 × 300, the size the network was
/// trained at; below 1 the input keeps a 4:3 frame's shape, 400 × 300 × `scale` (0.8 is
/// 320 × 240). One text graph (made for 300 × 300) serves every size, with one network per
/// size (OpenCV 4.6 keeps the anchors of the first size a network ran at). Boxes scoring at
/// least ``scoreThreshold`` are kept, those wider than ``widestShare`` of the frame dropped,
/// and overlapping ones thinned (``overlapThreshold``). Measured on OpenCV's `vtest.avi`
/// against 27 people counted by eye (docs/run.md): luma at 0.2 finds more than colour at any
/// threshold.
public struct SSDPersonDetector: Detector, Sendable {
    /// The input-size knob, in (0, 1]: 1 is 300 × 300, below it 400 × 300 × `scale`.
    public var scale: Double
    /// The least score a box needs (the network's sigmoid, 0–1).
    public var scoreThreshold = SSDPersonDetector.defaultScoreThreshold
    /// The score threshold measured best on `vtest.avi`'s counted people (docs/run.md).
    public static let defaultScoreThreshold = 0.2
    /// Boxes overlapping a better one by more than this IoU are dropped.
    public var overlapThreshold = 0.3
    /// Boxes wider than this share of the frame are dropped (the network's whole-frame false
    /// boxes at small inputs).
    public var widestShare = 0.5
    /// The most people reported in a frame.
    public static let capacity = 100

    /// Regions first — three a frame at most, each at the network's 300 × 300 (the far
    /// people enlarged onto it), on every frame, then on every second frame — then the whole
    /// frame at 300 × 300, at 320 × 240 (scale 0.8), then frame stride. Measured on
    /// `vtest.avi` (docs/run.md), three regions on every second frame (1.39 calls a frame,
    /// HOTA 0.480) beat the whole frame (1 call, 0.288); before the tracker's gallery was
    /// closed (``DetectorKind/trackerConfiguration``), they beat two regions on every frame
    /// too (1.97 calls, 0.363 against 0.367), and one region a frame was worse than the whole
    /// frame.
    public static let inferenceLadder = [
        InferenceSetting(stride: 1, scale: 1, regions: 3),
        InferenceSetting(stride: 2, scale: 1, regions: 3),
        InferenceSetting(stride: 1, scale: 1), InferenceSetting(stride: 1, scale: 0.8),
        InferenceSetting(stride: 2, scale: 0.8), InferenceSetting(stride: 3, scale: 0.8),
    ]

    /// HOTA at each rung, each run alone over `vtest.avi` (PETS 2009 S2L1) against its
    /// published ground truth (docs/run.md, `scripts/vtest-quality.sh`): the regions keep most
    /// for what they cost, so under pressure the governor halves them before it gives them up.
    public static let rungQuality: [InferenceSetting: Double] = [
        InferenceSetting(stride: 1, scale: 1, regions: 3): 0.522,
        InferenceSetting(stride: 2, scale: 1, regions: 3): 0.480,
        InferenceSetting(stride: 1, scale: 1): 0.288,
        InferenceSetting(stride: 1, scale: 0.8): 0.263,
        InferenceSetting(stride: 2, scale: 0.8): 0.238,
        InferenceSetting(stride: 3, scale: 0.8): 0.236,
    ]

    /// The most regions of a frame looked at (``InferenceSetting/regions``); 0 looks at the
    /// whole frame alone, resized to the input ``scale`` sets. Looking at regions, each is
    /// resized onto 300 × 300, whatever ``scale``.
    public var regions = 0
    /// Where regions are looked for, kept between frames.
    public var search = RegionSearch()

    /// Why the network for an input size could not be read, the first time it could not
    /// (the model changed under a running detector): the frames it was asked to see then got
    /// no boxes, and the run says so.
    public private(set) var failure: PersonModelError?
    /// Frames that got no boxes because their network could not be read.
    public private(set) var framesUnseen = 0
    /// The network's runs so far: one a frame on the whole frame, one a region otherwise.
    public private(set) var networkCalls = 0

    private let networks: PersonNetworks

    /// A detector of `model` at `scale`, looking at `regions` regions a frame (0: the whole
    /// frame).
    ///
    /// - Throws: ``PersonModelError`` when OpenCV cannot read the model.
    public init(model: PersonModel, scale: Double = 1, regions: Int = 0)
        throws(PersonModelError)
    {
        self.scale = scale
        self.regions = regions
        networks = PersonNetworks(model: model)
        // The networks it may need, read now: a model OpenCV cannot read fails here.
        _ = try networks.network(for: Self.inputSize(scale: scale))
        _ = try networks.network(for: Self.inputSize(scale: 1))
    }

    /// The network's input, width × height, at `scale`.
    public static func inputSize(scale: Double) -> (width: Int, height: Int) {
        let scale = min(max(scale, 0.1), 1)
        guard scale < 1 else { return (300, 300) }
        return (Int((400 * scale).rounded()), Int((300 * scale).rounded()))
    }

    /// People in the frame, in its pixel coordinates, with the network's scores.
    public mutating func detect(in frame: GrayFrame) -> [Detection] {
        detect(in: frame, expecting: [])
    }

    /// People in the frame, in its pixel coordinates, with the network's scores: on the whole
    /// frame, or, looking at regions, on those the ``search`` plans around `expected` (the
    /// tracker's people, pixels) and what moves, merged (``RegionMerge``).
    public mutating func detect(in frame: GrayFrame, expecting expected: [BoundingBox])
        -> [Detection]
    {
        let whole = RegionPlan.Region(x: 0, y: 0, width: frame.width, height: frame.height)
        guard regions > 0 else {
            return (look(at: whole, in: frame, input: Self.inputSize(scale: scale)) ?? []).map(
                \.detection)
        }
        let plan = search.plan(for: frame, expecting: expected, budget: regions)
        var found: [RegionMerge.Found] = []
        for region in plan.regions {
            guard let boxes = look(at: region, in: frame, input: Self.inputSize(scale: 1)) else {
                return []
            }
            found += boxes
        }
        let merged = RegionMerge.merge(found)
        search.learn(
            from: merged.filter { !$0.isCut && $0.detection.confidence >= Self.sureScore }
                .map(\.detection.box),
            frameHeight: frame.height)
        return merged.map(\.detection)
    }

    /// The least score of a box the height model learns from.
    public static let sureScore = 0.5

    /// The people the network finds in `region` of `frame`, resized onto `input`, in the
    /// frame's pixels; nil (counted, the failure kept) when the network cannot be read.
    private mutating func look(
        at region: RegionPlan.Region, in frame: GrayFrame, input: (width: Int, height: Int)
    ) -> [RegionMerge.Found]? {
        let network: PersonNetworks.Network
        do {
            network = try networks.network(for: input)
        } catch {
            failure = failure ?? error
            framesUnseen += 1
            return nil
        }
        networkCalls += 1
        var boxes = [headroom_person_box](repeating: headroom_person_box(), count: Self.capacity)
        let found = frame.pixels.withUnsafeBufferPointer { pixels in
            boxes.withUnsafeMutableBufferPointer { output in
                headroom_person_net_detect(
                    network.pointer, pixels.baseAddress! + region.y * frame.width + region.x,
                    Int32(region.width), Int32(region.height), Int32(frame.width),
                    Int32(input.width), Int32(input.height), scoreThreshold, widestShare,
                    overlapThreshold, output.baseAddress, Int32(Self.capacity))
            }
        }
        guard found > 0 else { return [] }
        let (width, height) = (Double(region.width), Double(region.height))
        // A box against an edge of the region that is not the frame's is someone cut short.
        let edge = 2 / min(width, height)
        let cutsLeft = region.x > 0
        let cutsTop = region.y > 0
        let cutsRight = region.x + region.width < frame.width
        let cutsBottom = region.y + region.height < frame.height
        return boxes.prefix(Int(min(found, Int32(Self.capacity)))).map { box in
            let isCut =
                (cutsLeft && box.left < edge) || (cutsTop && box.top < edge)
                || (cutsRight && box.right > 1 - edge) || (cutsBottom && box.bottom > 1 - edge)
            return RegionMerge.Found(
                detection: Detection(
                    box: BoundingBox(
                        minX: Double(region.x) + box.left * width,
                        minY: Double(region.y) + box.top * height,
                        width: (box.right - box.left) * width,
                        height: (box.bottom - box.top) * height),
                    confidence: box.score),
                isCut: isCut)
        }
    }

    /// Each box carries the colours of the clothes in it (``ColourHistogram``).
    public var appearanceStyle: AppearanceStyle? { .colourHistogram }
}

/// One network per input size, read when first needed and shared by every copy of a detector.
/// Each network serialises its own calls.
private final class PersonNetworks: Sendable {
    let model: PersonModel
    private let table = LockedState<[Int: Network]>([:])

    init(model: PersonModel) { self.model = model }

    /// The network for `input`, read on first use.
    func network(for input: (width: Int, height: Int)) throws(PersonModelError) -> Network {
        let key = input.width << 16 | input.height
        let model = model
        let network: Network? = table.withLock { table in
            if let network = table[key] { return network }
            guard let pointer = headroom_person_net_create(model.graph, model.textGraph) else {
                return nil
            }
            table[key] = Network(pointer)
            return table[key]
        }
        guard let network else {
            throw PersonModelError(
                "OpenCV cannot read the person detector's model (\(model.graph)); install it"
                    + " again with \(PersonModel.installCommand)")
        }
        return network
    }

    /// Owns one OpenCV network.
    final class Network: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { headroom_person_net_destroy(pointer) }
    }
}
