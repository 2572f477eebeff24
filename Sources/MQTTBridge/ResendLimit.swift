import Units

/// How often a peer that asks for everything again — Home Assistant's `online` on its status
/// topic, Frigate's on `frigate/available` — is answered: at once, then at most once every
/// ``interval``, the asks in between answered together when it is over (newest wins).
/// Unlimited, 20,000 `online`s of 7 bytes became 871 discovery payloads, 31.6 MB to every
/// subscriber, and with 64 cameras 51,610 commands to Frigate.
struct ResendLimit {
    /// The shortest time between two answers.
    static let interval = Duration.seconds(5)

    /// When the last answer went; nil before the first, and after a reconnection (which is
    /// answered at once: the broker lost nothing a peer asked for).
    private(set) var last: MonotonicInstant?

    /// Whether an answer may go at `now`; if it may, it is counted as gone.
    mutating func allows(at now: MonotonicInstant) -> Bool {
        if let last, now < last.advanced(by: Self.interval) { return false }
        last = now
        return true
    }

    /// When the next answer may go.
    var next: MonotonicInstant? { last?.advanced(by: Self.interval) }

    /// Forgets the last answer: the next goes at once.
    mutating func reset() { last = nil }
}
