/// Why a stand refused a request.
public enum DockError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The limits are unusable (named axis, what is wrong and what was expected).
    case invalidLimits(axis: Axis, problem: String)
    /// A request came faster than its rate limit allows.
    case rateLimited(request: String, maximumPerSecond: Double)
    /// The stand is not docked, so it cannot move.
    case notDocked
    /// System tracking is on, so manual motor commands are refused.
    case systemTrackingEnabled
    /// A velocity command or a parameter was not finite.
    case invalidCommand(String)

    /// A sentence naming what failed and what was expected.
    public var description: String {
        switch self {
        case .invalidLimits(let axis, let problem): return "\(axis) limits: \(problem)"
        case .rateLimited(let request, let maximum):
            return "\(request): rate limited, at most \(maximum) per second"
        case .notDocked: return "the stand is not docked"
        case .systemTrackingEnabled:
            return "system tracking is on; turn it off before commanding the motors"
        case .invalidCommand(let problem): return "invalid command: \(problem)"
        }
    }
}
