/// Motor commands refused, counted, with the first refusal's reason (a run sends a command
/// every frame, the stand's own control every 10 ms: one note says it all).
public struct RefusedCommands: Sendable, Equatable {
    /// How many were refused.
    public private(set) var count = 0
    /// Why the first was.
    public private(set) var firstReason: String?

    /// None refused yet.
    public init() {}

    /// Counts a refusal.
    public mutating func record(_ reason: some Error) {
        count += 1
        if firstReason == nil { firstReason = String(describing: reason) }
    }

    /// Both counts together, the first reason the earlier one's.
    public static func + (lhs: RefusedCommands, rhs: RefusedCommands) -> RefusedCommands {
        var sum = lhs
        sum.count += rhs.count
        sum.firstReason = lhs.firstReason ?? rhs.firstReason
        return sum
    }
}
