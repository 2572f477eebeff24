import Files

/// A Chrome trace-event file (an array of events, or `{"traceEvents": [...]}`, as Chrome,
/// Perfetto and `launch report --format trace` write it) read as a launch: the begin, end,
/// complete and instant events of one process become a ``LaunchReport`` whose times count
/// from its first event (from zero, for a trace Headroom exported).
///
/// Metadata events name the process; counters, flows and async events are skipped and
/// counted in the notes. Errors name the event: `traceEvents[12].ts: expected microseconds…`.
public enum ChromeTrace {
    /// One process of a trace.
    public struct Process: Hashable, Sendable {
        /// Its id (`pid`; 0 for events without one).
        public var id: Int
        /// Its name, from a `process_name` metadata event.
        public var name: String?
        /// How many timeline events it has.
        public var eventCount: Int
    }

    /// The launch of process `processID` in the trace `data` (the only process when `nil`).
    ///
    /// - Throws: ``ConfigurationError`` naming `file` and the event index for an event that
    ///   is not valid, and naming the processes when the trace holds several and none was
    ///   picked, or not the one picked.
    public static func report(
        _ data: some Sequence<UInt8>, file: String, processID: Int? = nil, label: String? = nil
    ) throws(ConfigurationError) -> LaunchReport {
        let document: JSONValue
        do { document = try JSONParser.parse(data) } catch { throw error.inFile(file) }
        return try report(document, file: file, processID: processID, label: label)
    }

    /// The launch of process `processID` in a trace already parsed (``isTrace(_:)``).
    public static func report(
        _ document: JSONValue, file: String, processID: Int? = nil, label: String? = nil
    ) throws(ConfigurationError) -> LaunchReport {
        do {
            return try read(document, file: file, processID: processID, label: label)
        } catch {
            throw error.file == nil ? error.inFile(file) : error
        }
    }

    /// Whether `value` has the shape of a trace (rather than of a Headroom launch report).
    public static func isTrace(_ value: JSONValue) -> Bool {
        switch value {
        case .array: true
        case .object(let members): members.contains { $0.key == "traceEvents" }
        default: false
        }
    }

    /// The `otherData` keys Headroom's exporter writes that are not the report's metadata.
    private static let exporterKeys: Set<String> = ["origin", "startedAt", "failure", "notes"]

    private static func read(
        _ document: JSONValue, file: String, processID: Int?, label: String?
    ) throws(ConfigurationError) -> LaunchReport {
        let (elements, prefix, otherData) = try events(of: document)
        var timeline: [Int: [(index: Int, event: TraceEvent)]] = [:]
        var names: [Int: String] = [:]
        var skipped = 0
        for (index, element) in elements.enumerated() {
            let path = "\(prefix)[\(index)]"
            guard let event = try TraceEvent.parse(element, path: path, requiresTimestamp: true)
            else {
                if let (pid, name) = processName(element) {
                    names[pid] = name
                } else if !isMetadata(element) {
                    skipped += 1
                }
                continue
            }
            timeline[event.processID ?? 0, default: []].append((index, event))
        }
        let processes = timeline.keys.sorted().map {
            Process(id: $0, name: names[$0], eventCount: timeline[$0]!.count)
        }
        let chosen = try choose(processID, among: processes)
        // Pairing follows time; events at one time keep the file's order.
        let events = timeline[chosen.id]!.sorted {
            ($0.event.timestamp!, $0.index) < ($1.event.timestamp!, $1.index)
        }.map(\.event)
        let exported = otherData["origin"] == ReportOrigin.processStart.rawValue
        let origin = exported ? 0 : events.map { $0.timestamp! }.min()!
        // A file is refused whole when it spans more than a report holds (the assembler
        // would skip the events beyond, as it does for a program's lines).
        let end = events.map { $0.timestamp! + ($0.duration ?? 0) }.max() ?? origin
        let span = (end - origin) / 1e6
        guard span <= LaunchReport.secondsRange.upperBound else {
            throw ConfigurationError(
                path: prefix,
                problem:
                    "the events of process \(chosen.id) span \(span) s; a launch report holds at"
                    + " most \(Int(LaunchReport.secondsRange.upperBound)) s")
        }
        var assembler = TraceAssembler(originMicroseconds: origin)
        for event in events { assembler.add(event) }
        assembler.note(.otherKind, count: skipped)
        var metadata = otherData.filter { !exporterKeys.contains($0.key) }
        metadata["importedFrom"] = FileSystem.name(of: file)
        metadata["pid"] = String(chosen.id)
        let startedAt = otherData["startedAt"].map { Double($0) ?? .nan } ?? 0
        if let problem = LaunchReport.startedAtProblem(startedAt) {
            throw ConfigurationError(path: "otherData.startedAt", problem: problem)
        }
        return assembler.report(
            label: label ?? chosen.name
                ?? FileSystem.stem(of: file),
            startedAt: startedAt,
            origin: exported ? .processStart : .timelineStart,
            endMicroseconds: assembler.lastEventMicroseconds ?? origin, metadata: metadata)
    }

    /// The event array, the path prefix of its elements, and the trace's string-valued
    /// `otherData`.
    private static func events(of document: JSONValue) throws(ConfigurationError) -> (
        [JSONValue], String, [String: String]
    ) {
        switch document {
        case .array(let elements): return (elements, "", [:])
        case .object(let members):
            guard
                case .array(let elements)? = members.first(where: { $0.key == "traceEvents" })?
                    .value
            else {
                throw ConfigurationError(
                    path: "traceEvents", problem: "expected an array of events")
            }
            var other: [String: String] = [:]
            if case .object(let data)? = members.first(where: { $0.key == "otherData" })?.value {
                for (key, value) in data { if case .string(let text) = value { other[key] = text } }
            }
            return (elements, "traceEvents", other)
        default:
            throw ConfigurationError(
                path: "", problem: "expected an array of trace events or {\"traceEvents\": [...]}")
        }
    }

    private static func choose(_ processID: Int?, among processes: [Process])
        throws(ConfigurationError) -> Process
    {
        let listed =
            processes.prefix(8).map { process in
                "\(process.id)" + (process.name.map { " \"\($0)\"" } ?? "")
                    + " (\(process.eventCount) events)"
            }.joined(separator: ", ") + (processes.count > 8 ? ", …" : "")
        guard let processID else {
            guard processes.count <= 1 else {
                throw ConfigurationError(
                    path: "",
                    problem:
                        "the trace holds \(processes.count) processes: \(listed); pick one with --pid"
                )
            }
            guard let only = processes.first else {
                throw ConfigurationError(
                    path: "", problem: "the trace has no begin, end, complete or instant events")
            }
            return only
        }
        guard let process = processes.first(where: { $0.id == processID }) else {
            throw ConfigurationError(
                path: "", problem: "no events of process \(processID); the trace holds \(listed)")
        }
        return process
    }

    private static func member(_ key: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    private static func isMetadata(_ value: JSONValue) -> Bool {
        member("ph", of: value) == .string("M")
    }

    /// The pid and name a `process_name` metadata event gives.
    private static func processName(_ value: JSONValue) -> (Int, String)? {
        guard isMetadata(value), member("name", of: value) == .string("process_name"),
            let arguments = member("args", of: value),
            case .string(let name)? = member("name", of: arguments)
        else { return nil }
        switch member("pid", of: value) {
        case .number(let literal)?: return Int(literal).map { ($0, name) }
        case nil: return (0, name)
        default: return nil
        }
    }
}
