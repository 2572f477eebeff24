import Pressure
import Units

/// What the host governor advises one client pipeline to run at: the answer of
/// `GET /v1/clients/{id}/advice` and the data of an `advice` event.
public struct ClientAdvice: Hashable, Sendable, Codable {
    /// Increases with every change of any client's advice; a client that sees the same `seq`
    /// twice has nothing new to do.
    public var seq: Int
    /// The host's pressure level.
    public var level: PressureLevel
    /// The level this client is governed at: the host's, raised when its own frames are late.
    public var actingLevel: PressureLevel
    /// The frame rate to run at; 0 means pause until advised otherwise.
    public var frameRate: FrameRate
    /// The index of the ladder step to use (0 = the heaviest).
    public var ladderStep: Int
    /// That step's name, as the client registered it.
    public var ladderName: String
    /// Why, in words.
    public var reason: String

    /// Advice with every field given.
    public init(
        seq: Int, level: PressureLevel, actingLevel: PressureLevel, frameRate: FrameRate,
        ladderStep: Int, ladderName: String, reason: String
    ) {
        self.seq = seq
        self.level = level
        self.actingLevel = actingLevel
        self.frameRate = frameRate
        self.ladderStep = ladderStep
        self.ladderName = ladderName
        self.reason = reason
    }

    /// Whether `other` asks the client for the same thing (sequence number and wording aside).
    public func asksTheSame(as other: ClientAdvice) -> Bool {
        level == other.level && actingLevel == other.actingLevel
            && frameRate == other.frameRate && ladderStep == other.ladderStep
    }
}

/// One client's advice changing, as the host governor publishes it.
public struct AdviceChange: Hashable, Sendable, Codable {
    /// The client whose advice changed.
    public var client: ClientID
    /// The client's registered name.
    public var name: String
    /// Its new advice.
    public var advice: ClientAdvice

    /// A change of `client`'s advice to `advice`.
    public init(client: ClientID, name: String, advice: ClientAdvice) {
        self.client = client
        self.name = name
        self.advice = advice
    }
}
