import Files

/// Why a measured launch did not end well: the run is still stored, as failed, so a crashing
/// or hanging build shows in the history instead of vanishing from it.
public enum LaunchFailure: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The program exited with a non-zero status before it said ready.
    case exited(status: Int32)
    /// A signal ended the program before it said ready.
    case signalled(Int32)
    /// The program did not say ready within the time allowed, in seconds, and was stopped.
    case timedOut(seconds: Double)
    /// The program could not be started (the reason, as the system gave it).
    case notStarted(String)
    /// The measurement was interrupted (SIGINT or SIGTERM) before the program said ready.
    case interrupted

    /// `exit status 3`, `killed by signal 11 (SIGSEGV)`, `not ready within 5 s`.
    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let number):
            "killed by signal \(number)" + (Self.signalNames[number].map { " (\($0))" } ?? "")
        case .timedOut(let seconds): "not ready within \(Self.secondsText(seconds)) s"
        case .notStarted(let reason): "could not start: \(reason)"
        case .interrupted: "interrupted before it was ready"
        }
    }

    private static let signalNames: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
        7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM",
        15: "SIGTERM",
    ]

    private static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15
            ? String(Int64(seconds)) : String(seconds)
    }

    // Stored as an object with exactly one of these keys.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case exitStatus, signal, timeoutSeconds, notStarted, interrupted
    }

    /// Decodes `{"exitStatus": 3}`, `{"signal": 11}`, `{"timeoutSeconds": 5}`,
    /// `{"notStarted": "…"}` or `{"interrupted": true}`.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "expected exactly one of exitStatus, signal, timeoutSeconds, notStarted,"
                        + " interrupted"))
        }
        switch key {
        case .exitStatus: self = .exited(status: try container.decode(Int32.self, forKey: key))
        case .signal:
            let number = try container.decode(Int32.self, forKey: key)
            guard (1...64).contains(number) else {
                throw decoder.invalidValue(key, "expected a signal number 1–64, got \(number)")
            }
            self = .signalled(number)
        case .timeoutSeconds:
            let seconds = try container.decode(Double.self, forKey: key)
            guard seconds.isFinite, seconds > 0 else {
                throw decoder.invalidValue(key, "expected positive seconds, got \(seconds)")
            }
            self = .timedOut(seconds: seconds)
        case .notStarted: self = .notStarted(try container.decode(String.self, forKey: key))
        case .interrupted:
            guard try container.decode(Bool.self, forKey: key) else {
                throw decoder.invalidValue(key, "expected true")
            }
            self = .interrupted
        }
    }

    /// Encodes the one key of ``init(from:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .exited(let status): try container.encode(status, forKey: .exitStatus)
        case .signalled(let number): try container.encode(number, forKey: .signal)
        case .timedOut(let seconds): try container.encode(seconds, forKey: .timeoutSeconds)
        case .notStarted(let reason): try container.encode(reason, forKey: .notStarted)
        case .interrupted: try container.encode(true, forKey: .interrupted)
        }
    }
}
