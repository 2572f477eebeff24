/// Where the host's state lives on the broker: `PREFIX/NODE/availability`, `…/state` and
/// `…/clients`, and the Home Assistant discovery topic `DISCOVERY/device/NODE/config`.
public struct MQTTTopics: Sendable, Hashable {
    /// The first level of every state topic (`headroom`).
    public var prefix: String
    /// This host's id: the second level of the state topics and the discovery node id.
    public var node: String
    /// Home Assistant's discovery prefix (`homeassistant`).
    public var discoveryPrefix: String

    /// Topics under `prefix` for `node`.
    ///
    /// - Throws: ``MQTTBridgeError/badTopic(_:)`` naming the part and what was expected: a
    ///   prefix of topic levels without wildcards, a node id of letters, digits, `_` and `-`.
    public init(
        prefix: String = "headroom", node: String, discoveryPrefix: String = "homeassistant"
    )
        throws(MQTTBridgeError)
    {
        try Self.checkPrefix(prefix, "--mqtt-prefix")
        try Self.checkPrefix(discoveryPrefix, "--mqtt-discovery-prefix")
        guard Self.isNodeID(node) else {
            throw .badTopic(
                "--mqtt-node: expected 1 to 64 letters, digits, \"_\" or \"-\", got \"\(node)\"")
        }
        self.prefix = prefix
        self.node = node
        self.discoveryPrefix = discoveryPrefix
    }

    /// `online` while Headroom publishes, `offline` after it stops or dies (its last will).
    public var availability: String { "\(prefix)/\(node)/availability" }
    /// The host's state, one JSON document.
    public var state: String { "\(prefix)/\(node)/state" }
    /// The registered clients and their advice, one JSON document.
    public var clients: String { "\(prefix)/\(node)/clients" }
    /// Home Assistant's device discovery topic for this host.
    public var discovery: String { "\(discoveryPrefix)/device/\(node)/config" }
    /// Where Home Assistant says `online` when it (re)starts: discovery is sent again then.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }

    /// A node id made from a host name: `headroom_` and the name with every character Home
    /// Assistant does not take in a node id replaced by `_`.
    public static func nodeID(hostName: String) -> String {
        let cleaned = String(
            hostName.prefix(48).map { character -> Character in
                character.isASCII && (character.isLetter || character.isNumber || character == "-")
                    ? character : "_"
            })
        return "headroom_" + (cleaned.isEmpty ? "host" : cleaned)
    }

    /// Whether `text` is a node id Home Assistant takes.
    static func isNodeID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    /// Whether `text` is topic levels a prefix may be: separated by `/`, none empty, no
    /// wildcard, the first not starting with `$` (brokers keep those topics for themselves and
    /// drop a client's publishes there), no control character and no Unicode noncharacter
    /// (mosquitto drops a topic with one as invalid UTF-8), at most 200 bytes.
    static func isTopicLevels(_ text: String) -> Bool {
        let levels = text.split(separator: "/", omittingEmptySubsequences: false)
        return (1...200).contains(text.utf8.count)
            && levels.allSatisfy { !$0.isEmpty && !$0.contains("+") && !$0.contains("#") }
            && !text.hasPrefix("$")
            && !text.unicodeScalars.contains { scalar in
                scalar.properties.generalCategory == .control
                    || scalar.properties.isNoncharacterCodePoint
            }
    }

    /// What a topic prefix must be, in words, for errors that refuse one.
    static let expectedTopicLevels =
        "topic levels separated by \"/\", none empty, no \"+\" or \"#\", not starting with \"$\""
        + " (the broker's own), no control characters or Unicode noncharacters"

    private static func checkPrefix(_ prefix: String, _ option: String) throws(MQTTBridgeError) {
        guard isTopicLevels(prefix) else {
            throw .badTopic("\(option): expected \(expectedTopicLevels), got \"\(prefix)\"")
        }
    }
}

/// What went wrong setting up the bridge.
public enum MQTTBridgeError: Error, Equatable, CustomStringConvertible {
    /// A topic part that cannot be used.
    case badTopic(String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .badTopic(let problem): problem
        }
    }
}
