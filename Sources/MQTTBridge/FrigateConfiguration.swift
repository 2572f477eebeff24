import Files
import Governor
import Units

/// How Headroom governs a Frigate NVR through Frigate's own MQTT API (`serve --frigate FILE`):
/// Frigate's topic prefix and cameras, its priority among the host's clients, its detect frame
/// rate, and a ladder of the user's Frigate profiles, heaviest first (`none` is Frigate's own
/// configuration, the full quality).
///
/// ```json
/// {"cameras": ["front_door", "yard"], "priority": 3, "detectFrameRate": 5,
///  "ladder": [{"name": "none", "cost": 100}, {"name": "reduced", "cost": 55},
///             {"name": "minimal", "cost": 25}]}
/// ```
public struct FrigateConfiguration: Sendable, Hashable, Decodable {
    /// Frigate's topic prefix (its `mqtt.topic_prefix`, `frigate` by default).
    public var topicPrefix: String
    /// The cameras whose detection is paused as the last step (`frigate/CAMERA/detect/set`).
    public var cameras: [String]
    /// The client's name among the host's clients (`frigate` by default).
    public var name: String
    /// Its priority, 0–100: the lowest sheds first.
    public var priority: Int
    /// Frigate's detect frame rate (`detect.fps`); profiles change it, Headroom does not.
    public var detectFrameRate: FrameRate
    /// The profiles, heaviest first, each with its relative cost; `none` is Frigate's own
    /// configuration.
    public var ladder: [LadderStep]
    /// Whether detection is switched off on every camera when the governor says pause (at
    /// `shutdown`); true by default.
    public var pauses: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case topicPrefix, cameras, name, priority, detectFrameRate, ladder, pauses
    }

    /// Decodes a configuration strictly; each error names its field.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        topicPrefix = try container.decodeIfPresent(String.self, forKey: .topicPrefix) ?? "frigate"
        cameras = try container.decode([String].self, forKey: .cameras)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? "frigate"
        priority = try container.decode(Int.self, forKey: .priority)
        detectFrameRate = try container.decode(FrameRate.self, forKey: .detectFrameRate)
        ladder = try container.decode([LadderStep].self, forKey: .ladder)
        pauses = try container.decodeIfPresent(Bool.self, forKey: .pauses) ?? true
        guard MQTTTopics.isTopicLevels(topicPrefix) else {
            throw decoder.invalidValue(
                CodingKeys.topicPrefix, "expected \(MQTTTopics.expectedTopicLevels)")
        }
        guard (1...64).contains(cameras.count), Set(cameras).count == cameras.count,
            cameras.allSatisfy(MQTTTopics.isNodeID)
        else {
            throw decoder.invalidValue(
                CodingKeys.cameras,
                "expected 1 to 64 different camera names as Frigate has them (letters, digits,"
                    + " \"_\", \"-\")")
        }
        guard ladder.allSatisfy({ MQTTTopics.isNodeID($0.name) }) else {
            throw decoder.invalidValue(
                CodingKeys.ladder,
                "expected Frigate profile names (letters, digits, \"_\", \"-\"), \"none\" for"
                    + " Frigate's own configuration")
        }
        // The registration's own rules: the name, the priority, the rate, the ladder's order.
        if let broken = registration.brokenRule {
            let field: CodingKeys =
                switch broken.field {
                case .name: .name
                case .priority: .priority
                case .nominalFrameRate, .minFrameRate: .detectFrameRate
                default: .ladder
                }
            throw decoder.invalidValue(field, broken.problem)
        }
    }

    /// The registration Frigate has with the host governor: its detect rate is fixed (only
    /// its profiles change it), so the governor moves along the profiles alone.
    public var registration: ClientRegistration {
        ClientRegistration(
            name: name, priority: priority, nominalFrameRate: detectFrameRate,
            minFrameRate: detectFrameRate, ladder: ladder)
    }

    /// The configuration in the file at `path`.
    ///
    /// - Throws: ``Files/ConfigurationError`` naming the file and the field.
    public static func load(from path: String) throws(ConfigurationError) -> FrigateConfiguration {
        try decodeStrictly(FrigateConfiguration.self, from: InputFile.read(path), file: path)
    }
}
