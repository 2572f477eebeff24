import Files

/// Renders a launch report in the Chrome trace-event format (the JSON object form with
/// `traceEvents`), which the Perfetto UI and `chrome://tracing` open.
///
/// Phases become complete events (`"ph": "X"`, with `ts` and `dur` in microseconds), marks
/// become process-scoped instant events (`"ph": "i"`, `"s": "p"`). Viewers require the events
/// of one thread to nest, so phases that overlap without nesting (a deferred start running
/// beside frame delivery) go on separate lanes, shown as threads.
public enum TraceEventExporter {
    /// One trace event; field names are the format's own.
    struct Event: Encodable {
        var name: String
        var cat: String
        var ph: String
        var ts: Double
        var dur: Double?
        var pid: Int
        var tid: Int
        var s: String?
        var args: [String: String]?
    }

    struct Document: Encodable {
        var traceEvents: [Event]
        var displayTimeUnit: String
        var otherData: [String: String]
    }

    /// The trace JSON of `report`.
    public static func render(_ report: LaunchReport) -> [UInt8] {
        let pid = 1
        var events: [Event] = [
            Event(
                name: "process_name", cat: "__metadata", ph: "M", ts: 0, pid: pid, tid: 0,
                args: ["name": report.label.isEmpty ? "launch" : "launch: \(report.label)"])
        ]
        let lanes = lanes(for: report.phases)
        for lane in Set(lanes).sorted() {
            events.append(
                Event(
                    name: "thread_name", cat: "__metadata", ph: "M", ts: 0, pid: pid, tid: lane,
                    args: ["name": lane == 0 ? "launch" : "launch (concurrent \(lane))"]))
        }
        for (phase, lane) in zip(report.phases, lanes) {
            var args: [String: String] = [:]
            if let parent = phase.parent { args["parent"] = parent }
            if !phase.isComplete { args["complete"] = "false" }
            events.append(
                Event(
                    name: phase.name, cat: "launch", ph: "X", ts: microseconds(phase.start.seconds),
                    dur: microseconds(phase.duration.seconds), pid: pid, tid: lane,
                    args: args.isEmpty ? nil : args))
        }
        for mark in report.marks {
            events.append(
                Event(
                    name: mark.name, cat: "launch", ph: "i", ts: microseconds(mark.time.seconds),
                    pid: pid,
                    tid: 0, s: "p"))
        }
        var otherData = report.metadata
        otherData["origin"] = report.origin.rawValue
        otherData["startedAt"] = String(report.startedAt)
        if let failure = report.failure { otherData["failure"] = failure.description }
        if !report.notes.isEmpty { otherData["notes"] = report.notes.joined(separator: "\n") }
        let document = Document(traceEvents: events, displayTimeUnit: "ms", otherData: otherData)
        return JSONStyle.document.encodeExplainingFailure(document)
    }

    /// A lane per phase such that the phases of one lane nest: each phase takes the first lane
    /// whose open phases all contain it or have ended.
    static func lanes(for phases: [PhaseInterval]) -> [Int] {
        var open: [[Duration]] = []  // per lane, the ends of its open phases, innermost last
        var result = [Int](repeating: 0, count: phases.count)
        for index in phases.indices.sorted(by: { phases[$0].start < phases[$1].start }) {
            let phase = phases[index]
            var chosen: Int?
            for lane in open.indices {
                while let end = open[lane].last, end <= phase.start { open[lane].removeLast() }
                if open[lane].last.map({ $0 >= phase.end }) ?? true {
                    chosen = lane
                    break
                }
            }
            let lane = chosen ?? open.count
            if lane == open.count { open.append([]) }
            open[lane].append(phase.end)
            result[index] = lane
        }
        return result
    }

    private static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1e6 * 1000).rounded() / 1000
    }
}
