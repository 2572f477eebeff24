import Files
import Foundation
import LaunchTiming
import Testing

/// Trace events into launch reports: parsing, pairing, bounds and notes.
struct TraceAssemblerTests {
    private func event(_ text: String) throws(ConfigurationError) -> TraceEvent? {
        try TraceEvent.parse(
            JSONParser.parse(Array(text.utf8)), path: "", requiresTimestamp: false)
    }

    @Test("begins pair with ends by name and thread; the protocol's names become Headroom's")
    func pairing() throws {
        var assembler = TraceAssembler(originMicroseconds: 1_000, readyName: "ready")
        for line in [
            #"{"ph":"B","name":"app.init","ts":2000}"#,
            #"{"ph":"B","name":"model.load","ts":2500,"tid":2}"#,
            #"{"ph":"B","name":"inner","ts":3000}"#,
            #"{"ph":"E","name":"app.init","ts":9000}"#,
            #"{"ph":"E","ts":7000,"tid":2}"#,
            #"{"ph":"X","name":"session.start","ts":9000,"dur":500,"args":{"camera":"0"}}"#,
            #"{"ph":"i","name":"first_frame","ts":9600}"#,
        ] {
            assembler.add(try #require(try event(line)))
        }
        #expect(assembler.add(try #require(try event(#"{"ph":"i","name":"ready","ts":11000}"#))))
        #expect(!assembler.add(try #require(try event(#"{"ph":"i","name":"late","ts":12000}"#))))
        let report = assembler.report(
            label: "app", startedAt: 5, origin: .processStart, endMicroseconds: 20_000,
            addsProcessStart: true)
        let byName = Dictionary(
            report.phases.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["appInit"]?.duration.seconds == 0.007)
        #expect(byName["appInit"]?.isComplete == true)
        #expect(abs(byName["model.load"]!.duration.seconds - 0.0045) < 1e-12)
        // Nesting is by containment in time, across threads.
        #expect(byName["model.load"]?.parent == "appInit")
        // Still open at ready: reported up to the ready event, unfinished.
        #expect(byName["inner"]?.isComplete == false)
        #expect(byName["inner"]?.duration.seconds == 0.008)
        #expect(byName["sessionStart"]?.duration.seconds == 0.0005)
        #expect(byName["processStart"]?.duration.seconds == 0.001)
        #expect(report.timeToFirstPreviewFrame?.seconds == 0.0086)
        #expect(report.time(of: "ready")?.seconds == 0.01)
        #expect(report.time(of: "late") == nil)
        #expect(report.notes.isEmpty)
    }

    @Test("an end without a begin, an early event and a future one are notes, not events")
    func problemsAreNotes() throws {
        var assembler = TraceAssembler(originMicroseconds: 1_000_000)
        assembler.add(try #require(try event(#"{"ph":"E","name":"never"}"#)), receivedAt: 1_500_000)
        assembler.add(
            try #require(try event(#"{"ph":"i","name":"early","ts":10}"#)), receivedAt: 1_500_000)
        // A wall-clock time (µs since 1970) is far past the moment it was read: stamped then.
        assembler.add(
            try #require(try event(#"{"ph":"i","name":"wall","ts":1700000000000000}"#)),
            receivedAt: 1_600_000)
        let report = assembler.report(
            label: "", startedAt: 0, origin: .processStart, endMicroseconds: 2_000_000)
        #expect(report.time(of: "wall")?.seconds == 0.6)
        #expect(report.marks.count == 1)
        #expect(report.notes.count == 3)
        #expect(report.notes.contains { $0.hasPrefix("1 end event(s) without a begin") })
        #expect(report.notes.contains { $0.contains("\"early\"") })
        #expect(report.notes.contains { $0.contains("CLOCK_MONOTONIC") })
    }

    @Test("a flood keeps the first 10,000 events, counts the rest, and still sees ready")
    func flood() throws {
        var assembler = TraceAssembler(originMicroseconds: 0, readyName: "ready")
        let tick = try #require(try event(#"{"ph":"i","name":"tick"}"#))
        for index in 0..<(TraceAssembler.eventLimit + 500) {
            assembler.add(tick, receivedAt: Double(index))
        }
        #expect(
            assembler.add(
                try #require(try event(#"{"ph":"i","name":"ready"}"#)), receivedAt: 20_000))
        let report = assembler.report(
            label: "", startedAt: 0, origin: .processStart, endMicroseconds: 0)
        #expect(report.marks.count == TraceAssembler.eventLimit + 1)
        #expect(report.droppedEvents == 500)
        #expect(report.notes == ["500 event(s) over the limit of 10000 dropped"])
    }

    @Test("events are checked field by field; other kinds are not events")
    func parsingErrors() throws {
        let cases: [(String, String)] = [
            (#"{"name":"x"}"#, "ph: expected a string"),
            (#"{"ph":"B"}"#, "name: expected a string"),
            (#"{"ph":"B","name":"x","ts":-1}"#, "ts: expected microseconds"),
            (#"{"ph":"B","name":"x","ts":"1"}"#, "ts: expected microseconds"),
            (#"{"ph":"X","name":"x","ts":1}"#, "dur: expected the duration"),
            (#"{"ph":"i","name":"x","args":3}"#, "args: expected an object"),
            (#"{"ph":"i","name":"x","tid":1.5}"#, "tid: expected an integer id"),
            (#"[1]"#, "expected an event object"),
            // Names that would merge, hide or rewrite what is shown.
            (#"{"ph":"B","name":"a\u0000b"}"#, "name: expected no control"),
            (#"{"ph":"i","name":"\u001b[2Jclear"}"#, "name: expected no control"),
            (#"{"ph":"i","name":"x\u202Ey"}"#, "name: expected no control"),
            (#"{"ph":"i","name":""}"#, "name: expected a name"),
            (
                #"{"ph":"i","name":""# + String(repeating: "x", count: 1025) + #""}"#,
                "name: expected at most 1024 bytes"
            ),
        ]
        for (line, problem) in cases {
            #expect(throws: ConfigurationError.self, "\(line)") { try event(line) }
            do {
                _ = try event(line)
            } catch {
                #expect(error.description.contains(problem), "\(line): \(error)")
            }
        }
        #expect(try event(#"{"ph":"C","name":"memory","args":{"v":1}}"#) == nil)
        #expect(try event(#"{"ph":"I","name":"legacy","cat":"x","s":"g"}"#)?.phase == .instant)
    }

    @Test("lines are split across reads, an overlong one is skipped to its newline")
    func lineBuffer() {
        var buffer = TraceLineBuffer()
        var lines: [String] = []
        var overlong = 0
        func feed(_ text: String) {
            Array(text.utf8).withUnsafeBytes { bytes in
                buffer.feed(
                    bytes, line: { lines.append(String(decoding: $0, as: UTF8.self)) },
                    overlong: { overlong += 1 })
            }
        }
        feed("one\ntw")
        feed("o\n")
        feed(String(repeating: "x", count: TraceLineBuffer.lineLimit - 1))
        feed("yy")
        feed("still the long line\nthree\nfou")
        buffer.finish { lines.append(String(decoding: $0, as: UTF8.self)) }
        #expect(lines == ["one", "two", "three", "fou"])
        #expect(overlong == 1)
    }

    @Test("failures read and write as one-key objects, strictly")
    func failureCoding() throws {
        for failure: LaunchFailure in [
            .exited(status: 3), .signalled(11), .timedOut(seconds: 2.5), .notStarted("ENOENT"),
            .interrupted,
        ] {
            let data = try JSONEncoder().encode(failure)
            #expect(try decodeStrictly(LaunchFailure.self, from: data, file: nil) == failure)
        }
        #expect(LaunchFailure.signalled(11).description == "killed by signal 11 (SIGSEGV)")
        #expect(LaunchFailure.timedOut(seconds: 5).description == "not ready within 5 s")
        for bad in [#"{}"#, #"{"signal":99}"#, #"{"exitStatus":1,"signal":2}"#, #"{"why":1}"#] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try decodeStrictly(LaunchFailure.self, from: Data(bad.utf8), file: nil)
            }
        }
        // A completed report reads and writes as before failures and notes existed.
        let report = LaunchReport(
            label: "x", startedAt: 1, origin: .processStart, phases: [], marks: [])
        let text = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!text.contains("failure") && !text.contains("notes"))
    }

    @Test("a report's depths and times are bounded, so no exporter meets a 1e308 or a -1")
    func boundedReports() throws {
        func report(phase: String) -> Data {
            Data(
                """
                {"version": 1, "label": "x", "startedAt": 0, "origin": "processStart",
                 "phases": [\(phase)], "marks": []}
                """.utf8)
        }
        let cases: [(String, String)] = [
            (#"{"name": "a", "start": 0, "duration": 1, "depth": -1}"#, "phases[0].depth"),
            (#"{"name": "a", "start": 0, "duration": 1, "depth": 1000000000}"#, "phases[0].depth"),
            (#"{"name": "a", "start": 0, "duration": 1e308}"#, "phases[0].duration"),
            (#"{"name": "a", "start": 1e9, "duration": 1}"#, "phases[0].start"),
        ]
        for (phase, path) in cases {
            do {
                _ = try LaunchReport.decode(report(phase: phase), file: "r.json")
                Issue.record("\(phase) was accepted")
            } catch {
                #expect(error.description.hasPrefix("r.json: \(path): expected"), "\(error)")
            }
        }
        // Nesting deeper than a report holds is shown at the deepest depth.
        var assembler = TraceAssembler(originMicroseconds: 0)
        for level in 0..<100 {
            assembler.add(TraceEvent(phase: .begin, name: "n\(level)", timestamp: Double(level)))
        }
        let deep = assembler.report(
            label: "", startedAt: 0, origin: .timelineStart, endMicroseconds: 1000)
        #expect(deep.phases.map(\.depth).max() == PhaseInterval.maximumDepth)
        _ = try LaunchReport.decode(JSONEncoder().encode(deep))
    }

    @Test("a Chrome trace whose events span more than a report can hold is refused")
    func overlongTrace() {
        let trace = #"[{"ph":"i","name":"a","ts":0},{"ph":"i","name":"b","ts":9007199254740992}]"#
        #expect(throws: ConfigurationError.self) {
            try ChromeTrace.report(Data(trace.utf8), file: "t.json")
        }
    }

    @Test("what a report could not hold is never stored: a phase past a week, a start of inf")
    func storedIsImportable() throws {
        // A program's X event lasting 2^53 µs: a note, not a phase import would refuse.
        var assembler = TraceAssembler(originMicroseconds: 0)
        assembler.add(TraceEvent(phase: .instant, name: "early", timestamp: 10))
        assembler.add(
            TraceEvent(phase: .complete, name: "forever", timestamp: 20, duration: 9e15))
        let report = assembler.report(
            label: "x", startedAt: 1_700_000_000, origin: .timelineStart, endMicroseconds: 30)
        #expect(report.phases.allSatisfy { $0.name != "forever" })
        #expect(report.notes.contains { $0.contains("604800 s after the start ignored") })
        _ = try LaunchReport.decode(JSONEncoder().encode(report))
        // A trace saying it started at infinity (or at no number) is refused, not stored.
        for startedAt in ["inf", "nan", "-1", "soon"] {
            let trace =
                #"{"traceEvents":[{"ph":"i","name":"a","ts":0}],"otherData":{"startedAt":""#
                + startedAt + #""}}"#
            let error = try #require(throws: ConfigurationError.self) {
                try ChromeTrace.report(Data(trace.utf8), file: "t.json")
            }
            #expect(error.description.contains("otherData.startedAt"), "\(startedAt)")
        }
    }

    @Test("a launch ended by a B or an X named ready has its ready time")
    func readyAsAPhase() {
        var assembler = TraceAssembler(originMicroseconds: 0, readyName: "ready")
        assembler.add(TraceEvent(phase: .begin, name: "app", timestamp: 10))
        let isReady = assembler.add(TraceEvent(phase: .begin, name: "ready", timestamp: 2000))
        #expect(isReady)
        let report = assembler.report(
            label: "x", startedAt: 0, origin: .timelineStart, endMicroseconds: 2000)
        #expect(report.time(of: "ready") == .milliseconds(2))
    }
}
