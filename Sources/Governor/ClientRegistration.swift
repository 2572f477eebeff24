import Files
import Units

/// One setting of a client pipeline's own inference ladder: its name and its cost relative to
/// the other steps (only the ratios matter).
public struct LadderStep: Hashable, Sendable, Codable {
    /// The client's name for the setting, such as `hog-scale-0.75`.
    public var name: String
    /// The step's relative cost, > 0; steps are listed heaviest first.
    public var cost: Double
    /// What the step's results are worth, 0–1 (a tracking score such as MOTA, or a detector's
    /// recall), if the client measured it: a client that follows the levels
    /// (``ClientRegistration/followsLevels``) then gets the cheapest step within the quality the
    /// policy lets it lose at a level (``GovernorPolicy/allowedQualityLoss``).
    public var quality: Double?

    /// A step named `name` costing `cost`, worth `quality` when measured.
    public init(name: String, cost: Double, quality: Double? = nil) {
        self.name = name
        self.cost = cost
        self.quality = quality
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, cost, quality }

    /// Decodes a step strictly: a name of 1–64 printable characters, a finite cost above 0 and
    /// a quality, when given, from 0 to 1.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        cost = try container.decode(Double.self, forKey: .cost)
        quality = try container.decodeIfPresent(Double.self, forKey: .quality)
        try ClientRegistration.checkName(name, key: CodingKeys.name, decoder)
        guard cost.isFinite, cost > 0, cost <= 1e6 else {
            throw decoder.invalidValue(CodingKeys.cost, "expected 0 < cost ≤ 1e6, got \(cost)")
        }
        if let quality, !(0...1).contains(quality) {
            throw decoder.invalidValue(
                CodingKeys.quality, "expected a quality from 0 to 1, got \(quality)")
        }
    }
}

/// Which of a pipeline's two knobs the governor turns first when it sheds.
public enum SheddingOrder: String, Hashable, Sendable, Codable, CaseIterable {
    /// Whichever step gives up less demand: the next lower frame rate or the next ladder step.
    case cheapest
    /// The ladder down to its lightest step at the nominal frame rate, then the frame rate
    /// (a tracker that needs every frame, a detector with cheap settings).
    case ladder
    /// The frame rate down to the minimum with the heaviest step, then the ladder (a detector
    /// whose light settings find too little).
    case frameRate
}

/// What a pipeline tells the host governor when it registers: who it is, how much it matters,
/// the frame rates it can run at and its inference ladder, heaviest first.
///
/// The request body of `POST /v1/clients`.
public struct ClientRegistration: Hashable, Sendable, Codable {
    /// A name for people (logs, metrics, events): 1–64 printable characters.
    public var name: String
    /// How much the pipeline matters, 0–100: a lower priority sheds before a higher one.
    public var priority: Int
    /// The frame rate the pipeline runs at without pressure (0 < fps ≤ 1000).
    public var nominalFrameRate: FrameRate
    /// The lowest frame rate it can still work at (0 < min ≤ nominal).
    public var minFrameRate: FrameRate
    /// Its inference settings, heaviest first (1–16 steps, costs not increasing).
    public var ladder: [LadderStep]
    /// The share of the host's budget (0–1) the pipeline uses at its nominal settings, if it
    /// knows (for example the `hardwareCost` of `POST /v1/estimate`); without it the governor
    /// learns the share from the pipeline's work reports.
    public var share: Share?
    /// Which knob to turn first when shedding (`cheapest` by default).
    public var shedFirst: SheddingOrder
    /// Whether the pipeline also keeps to the policy's settings at each pressure level, however
    /// much budget is left: its frame-rate cap (``GovernorPolicy/frameRateCap``, 20 fps at
    /// `serious` by default) and its inference step (the cheapest within the level's allowed
    /// quality loss when the ladder has qualities; otherwise the heaviest up to `fair`, the
    /// middle at `serious`, the lightest at `critical`). `headroom run`'s own pipeline does;
    /// `false` by default, when only the host's budget makes a client shed.
    public var followsLevels: Bool

    /// A registration with every field given.
    public init(
        name: String, priority: Int, nominalFrameRate: FrameRate, minFrameRate: FrameRate,
        ladder: [LadderStep], share: Share? = nil, shedFirst: SheddingOrder = .cheapest,
        followsLevels: Bool = false
    ) {
        self.name = name
        self.priority = priority
        self.nominalFrameRate = nominalFrameRate
        self.minFrameRate = minFrameRate
        self.ladder = ladder
        self.share = share
        self.shedFirst = shedFirst
        self.followsLevels = followsLevels
    }

    /// The largest ladder a client may register.
    public static let ladderLimit = 16

    /// A registration's fields, as the request body names them.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case name, priority, nominalFrameRate, minFrameRate, ladder, share, shedFirst
        case followsLevels
    }

    /// Decodes a registration strictly; every range error names its field.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        priority = try container.decode(Int.self, forKey: .priority)
        nominalFrameRate = try container.decode(FrameRate.self, forKey: .nominalFrameRate)
        minFrameRate = try container.decode(FrameRate.self, forKey: .minFrameRate)
        ladder = try container.decode([LadderStep].self, forKey: .ladder)
        share = try container.decodeIfPresent(Share.self, forKey: .share)
        followsLevels = try container.decodeIfPresent(Bool.self, forKey: .followsLevels) ?? false
        let order = try container.decodeIfPresent(String.self, forKey: .shedFirst) ?? "cheapest"
        guard let shedFirst = SheddingOrder(rawValue: order) else {
            throw decoder.invalidValue(
                CodingKeys.shedFirst,
                "expected one of: "
                    + SheddingOrder.allCases.map(\.rawValue).joined(separator: ", ")
                    + "; got \"\(order.prefix(32))\"")
        }
        self.shedFirst = shedFirst
        if let broken = brokenRule {
            throw decoder.invalidValue(broken.field, broken.problem)
        }
    }

    /// The first rule of a registration this one breaks — the field and what was expected —
    /// or nil when it keeps them all: a name of 1–64 visible characters, a priority from 0 to
    /// 100, 0 < minimum ≤ nominal ≤ 1000 fps, 1–16 ladder steps heaviest first, a share in
    /// (0, 1]. Decoding checks it; a client built in code (Frigate's) checks it too.
    public var brokenRule: (field: CodingKeys, problem: String)? {
        if !Self.isName(name) { return (.name, Self.nameRule) }
        guard (0...100).contains(priority) else {
            return (.priority, "expected an integer from 0 to 100, got \(priority)")
        }
        let nominal = nominalFrameRate.framesPerSecond
        let minimum = minFrameRate.framesPerSecond
        guard nominal.isFinite, nominal > 0, nominal <= 1000 else {
            return (.nominalFrameRate, "expected 0 < fps ≤ 1000, got \(nominal)")
        }
        guard minimum.isFinite, minimum > 0, minimum <= nominal else {
            return (
                .minFrameRate, "expected 0 < fps ≤ nominalFrameRate (\(nominal)), got \(minimum)"
            )
        }
        guard (1...Self.ladderLimit).contains(ladder.count) else {
            return (.ladder, "expected 1 to \(Self.ladderLimit) steps, got \(ladder.count)")
        }
        for index in ladder.indices.dropFirst() where ladder[index].cost > ladder[index - 1].cost {
            return (
                .ladder,
                "expected steps heaviest first, but step \(index) (\(ladder[index].cost)) costs"
                    + " more than step \(index - 1) (\(ladder[index - 1].cost))"
            )
        }
        if let share = share?.fraction, !(share.isFinite && share > 0 && share <= 1) {
            return (.share, "expected 0 < share ≤ 1, got \(share)")
        }
        return nil
    }

    /// Parses and validates a registration; errors name the field path.
    public static func decode(_ data: some Sequence<UInt8>) throws(ConfigurationError)
        -> ClientRegistration
    {
        try decodeStrictly(ClientRegistration.self, from: data, file: nil)
    }

    /// The most Unicode scalars a client name has.
    public static let nameScalarLimit = 64
    /// The most UTF-8 bytes a client name has.
    public static let nameByteLimit = 256

    /// What a name must be, in words.
    static let nameRule =
        "expected 1 to 64 characters (at most 256 bytes), none of them a control,"
        + " format or separator character"

    /// Whether `name` has 1–64 Unicode scalars in at most 256 UTF-8 bytes, none of them a
    /// control or format character (the bidi overrides, zero-width characters, tags), a line
    /// or paragraph separator, a surrogate or unassigned: a name is shown in lists, metrics
    /// and terminals, where such characters would hide or disguise what it says.
    static func isName(_ name: String) -> Bool {
        (1...nameScalarLimit).contains(name.unicodeScalars.count)
            && name.utf8.count <= nameByteLimit
            && !name.unicodeScalars.contains(where: \.hidesText)
    }

    /// Throws unless `name` is one (``isName(_:)``), naming `key`.
    static func checkName(_ name: String, key: some CodingKey, _ decoder: any Decoder) throws {
        guard isName(name) else { throw decoder.invalidValue(key, nameRule) }
    }
}
