import Files
import Foundation
import LaunchTiming
import Testing

/// Chrome trace-event files read as launches.
struct ChromeTraceTests {
    private let twoProcesses = """
        {"traceEvents": [
          {"ph": "M", "name": "process_name", "pid": 7, "args": {"name": "gst-launch"}},
          {"ph": "B", "name": "pipeline.build", "pid": 7, "tid": 1, "ts": 1000},
          {"ph": "X", "name": "plugin.load", "pid": 7, "tid": 1, "ts": 1200, "dur": 30000},
          {"ph": "E", "pid": 7, "tid": 1, "ts": 41000},
          {"ph": "C", "name": "memory", "pid": 7, "ts": 1500, "args": {"v": 3}},
          {"ph": "i", "name": "first_frame", "pid": 7, "tid": 2, "ts": 90000, "s": "g"},
          {"ph": "X", "name": "other", "pid": 8, "tid": 1, "ts": 5, "dur": 5}
        ], "displayTimeUnit": "ms"}
        """

    @Test("one process's events become a run counted from its first event")
    func pickedProcess() throws {
        let report = try ChromeTrace.report(Data(twoProcesses.utf8), file: "t.json", processID: 7)
        #expect(report.label == "gst-launch")
        #expect(report.origin == .timelineStart)
        #expect(report.phases.map(\.name) == ["pipeline.build", "plugin.load"])
        #expect(report.phases[0].duration.seconds == 0.04)
        #expect(report.phases[1].parent == "pipeline.build")
        #expect(report.timeToFirstPreviewFrame?.seconds == 0.089)
        #expect(report.notes == ["1 event(s) of other kinds (metadata, counters) skipped"])
    }

    @Test("several processes and no --pid, an absent pid and a bad event are errors that say so")
    func errors() {
        let cases: [(String, Int?, String)] = [
            (
                twoProcesses, nil,
                "the trace holds 2 processes: 7 \"gst-launch\" (4 events), 8 (1 events)"
            ),
            (twoProcesses, 9, "no events of process 9"),
            (#"[{"ph":"B","name":"x"}]"#, nil, "[0].ts: expected a time in µs"),
            (
                #"{"traceEvents":[{"ph":"i","name":"a","ts":1},{"ph":"X","name":"b","ts":1}]}"#,
                nil,
                "traceEvents[1].dur"
            ),
            (#"{"traceEvents":{}}"#, nil, "traceEvents: expected an array of events"),
            ("[]", nil, "no begin, end, complete or instant events"),
        ]
        for (text, pid, problem) in cases {
            do {
                _ = try ChromeTrace.report(Data(text.utf8), file: "t.json", processID: pid)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.hasPrefix("t.json: "))
                #expect(error.description.contains(problem), "\(error)")
            }
        }
    }

    @Test("a report exported as a trace reads back with its phases, marks and metadata")
    func roundTrip() throws {
        let original = LaunchReport(
            label: "app", startedAt: 1_700_000_000, origin: .processStart,
            phases: [
                PhaseInterval(name: "processStart", start: .seconds(0), duration: .seconds(0.002)),
                PhaseInterval(name: "appInit", start: .seconds(0.002), duration: .seconds(0.05)),
                PhaseInterval(
                    name: "model.load", start: .seconds(0.01), duration: .seconds(0.02), depth: 1,
                    parent: "appInit"),
            ],
            marks: [PhaseMark(name: "firstPreviewFrame", time: .seconds(0.06))],
            metadata: ["host": "pi"])
        let trace = TraceEventExporter.render(original)
        let read = try ChromeTrace.report(trace, file: "t.json", label: "app")
        #expect(read.origin == .processStart)
        #expect(read.startedAt == original.startedAt)
        #expect(read.phases.map(\.name) == original.phases.map(\.name))
        #expect(
            zip(read.phases, original.phases).allSatisfy {
                abs(($0.duration - $1.duration).seconds) < 1e-9
            })
        #expect(read.phases[2].parent == "appInit")
        #expect(read.marks == original.marks)
        #expect(read.metadata["host"] == "pi")
        #expect(read.notes.isEmpty)
    }
}
