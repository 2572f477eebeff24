import Files

/// One event in the shape of Chrome's trace-event format, as a program under
/// `headroom launch measure` writes it to `HEADROOM_TRACE_FD` and as Chrome and Perfetto
/// write it into a trace file: `{"ph": "B"|"E"|"X"|"i", "name": …, "ts": µs, "dur": µs,
/// "pid": …, "tid": …, "args": {…}}`.
///
/// Only the fields Headroom uses are checked (their types and ranges, strictly); the format's
/// other fields (`cat`, `s`, `id`, `tts`, …) are allowed and ignored.
public struct TraceEvent: Hashable, Sendable {
    /// The kinds of event a launch timeline is made of.
    public enum Phase: String, Hashable, Sendable {
        /// A phase begins (`B`).
        case begin = "B"
        /// The phase begun last (of the same name, when named) ends (`E`).
        case end = "E"
        /// A whole phase with its duration (`X`).
        case complete = "X"
        /// An instant (`i`; Chrome's older `I` too).
        case instant = "i"
    }

    /// What the event is.
    public var phase: Phase
    /// Its name; may be empty for an `E`, which then ends the innermost open phase.
    public var name: String
    /// When it happened, in microseconds (`CLOCK_MONOTONIC` under `launch measure`); `nil`
    /// when the writer left it out and the reader stamps it.
    public var timestamp: Double?
    /// How long a complete (`X`) event lasted, in microseconds.
    public var duration: Double?
    /// The process it belongs to, when given.
    public var processID: Int?
    /// The thread it belongs to, when given; begins and ends pair within a thread.
    public var threadID: Int?

    /// Creates an event; times are in microseconds.
    public init(
        phase: Phase, name: String, timestamp: Double? = nil, duration: Double? = nil,
        processID: Int? = nil, threadID: Int? = nil
    ) {
        self.phase = phase
        self.name = name
        self.timestamp = timestamp
        self.duration = duration
        self.processID = processID
        self.threadID = threadID
    }

    /// The event `value` describes, `nil` when its `ph` is a kind a launch timeline has no
    /// use for (metadata `M`, counters `C`, flows, async events).
    ///
    /// - Parameter requiresTimestamp: whether `ts` must be present (in a trace file; a
    ///   program under `measure` may leave it out).
    /// - Throws: ``ConfigurationError`` naming `path` and the field (`traceEvents[12].ts`).
    public static func parse(
        _ value: JSONValue, path: String, requiresTimestamp: Bool
    ) throws(ConfigurationError) -> TraceEvent? {
        guard case .object(let members) = value else {
            throw ConfigurationError(path: path, problem: "expected an event object")
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        guard case .string(let code)? = fields["ph"] else {
            throw ConfigurationError(
                path: field("ph"), problem: "expected a string: \"B\", \"E\", \"X\" or \"i\"")
        }
        guard let phase = Phase(rawValue: code == "I" ? "i" : code) else { return nil }
        var name = ""
        switch fields["name"] {
        case .string(let text)? where text.isEmpty && phase == .end: break
        case .string(let text)?:
            if let problem = PhaseNameRule.problem(with: text) {
                throw ConfigurationError(path: field("name"), problem: problem)
            }
            name = text
        case nil where phase == .end: break
        default: throw ConfigurationError(path: field("name"), problem: "expected a string")
        }
        let timestamp = try microseconds(fields["ts"], field("ts"))
        if requiresTimestamp && timestamp == nil {
            throw ConfigurationError(path: field("ts"), problem: "expected a time in µs")
        }
        let duration = try microseconds(fields["dur"], field("dur"))
        if phase == .complete && duration == nil {
            throw ConfigurationError(
                path: field("dur"), problem: "expected the duration in µs of an \"X\" event")
        }
        if let arguments = fields["args"] {
            guard case .object = arguments else {
                throw ConfigurationError(path: field("args"), problem: "expected an object")
            }
        }
        return TraceEvent(
            phase: phase, name: name, timestamp: timestamp,
            duration: phase == .complete ? duration : nil,
            processID: try identifier(fields["pid"], field("pid")),
            threadID: try identifier(fields["tid"], field("tid")))
    }

    /// A time in µs: a finite number at least 0, at most 2⁵³ (beyond, µs lose their unit).
    private static func microseconds(_ value: JSONValue?, _ path: String) throws(ConfigurationError)
        -> Double?
    {
        guard let value else { return nil }
        guard case .number(let literal) = value, let number = Double(literal), number.isFinite,
            (0...9_007_199_254_740_992).contains(number)
        else {
            throw ConfigurationError(
                path: path, problem: "expected microseconds, a number from 0 to 2^53")
        }
        return number
    }

    /// A process or thread id: an integer (Chrome), or a string of digits (some exporters).
    private static func identifier(_ value: JSONValue?, _ path: String) throws(ConfigurationError)
        -> Int?
    {
        switch value {
        case nil: return nil
        case .number(let literal)?:
            if let number = Int(literal) { return number }
        case .string(let text)?:
            if let number = Int(text) { return number }
        default: break
        }
        throw ConfigurationError(path: path, problem: "expected an integer id")
    }
}
