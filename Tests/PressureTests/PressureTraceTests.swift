import Files
import Foundation
import TestSupport
import Testing
import Units

@testable import Pressure

@Suite struct PressureTraceTests {
    private func heatingTrace() -> PressureTrace {
        PressureTrace(
            samples: (0...20).map { second in
                PressureSample(
                    time: instant(Double(second)),
                    sensors: [
                        sensor("cpu", 60 + 2 * Double(second)),
                        sensor("gone", second > 10 ? nil : 40),
                    ])
            })
    }

    @Test(
        "replayed in time, a trace gives the sample recorded at the elapsed time, whatever the call rate"
    )
    func replayInRecordedTime() {
        let source = TraceReplaySource(trace: heatingTrace(), pacing: .recordedTimes)
        // Called at 100.0, 100.4, 103.7, 103.8, 120.0 and 120.5 s of some clock.
        let temperatures = [100.0, 100.4, 103.7, 103.8, 120.0].map {
            source.sample(at: instant($0))?.sensors[0].celsius?.value
        }
        #expect(temperatures == [60, 60, 66, 66, 100])
        #expect(source.sample(at: instant(103.9))?.time == instant(103.9))
        #expect(source.sample(at: instant(120.5)) == nil)
    }

    @Test("a recording source keeps what it passes on, with times from 0")
    func recordingSource() {
        let recorder = RecordingSampleSource(TraceReplaySource(trace: heatingTrace()))
        for time in [5.0, 6.0, 7.0] { _ = recorder.sample(at: instant(time)) }
        let trace = recorder.trace
        #expect(trace.samples.map(\.time) == [0, 1, 2].map(instant))
        #expect(trace.samples.map { $0.sensors[0].celsius?.value } == [60, 62, 64])
    }

    @Test func aTraceSurvivesWritingAndReading() throws {
        let tree = try FixtureTree()
        let path = tree.root + "/trace.jsonl"
        let trace = heatingTrace()
        try trace.write(to: path)
        let read = try PressureTrace.read(from: path)
        #expect(read.samples.count == 21)
        #expect(
            read.samples.map { $0.sensors[0].celsius }
                == trace.samples.map { $0.sensors[0].celsius })
        #expect(read.samples[15].sensors[1].isStale)
        #expect(read.samples[15].sensors[1].celsius == nil)
    }

    @Test func aTraceWithCRLFLineEndsAndAByteOrderMarkReadsTheSame() throws {
        let tree = try FixtureTree()
        let path = tree.root + "/published.jsonl"
        let trace = heatingTrace()
        let published =
            "\u{FEFF}" + trace.jsonLines().replacingOccurrences(of: "\n", with: "\r\n")
        try Data(published.utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            try PressureTrace.read(from: path) == PressureTrace.read(from: writeLF(trace, tree)))
    }

    private func writeLF(_ trace: PressureTrace, _ tree: FixtureTree) throws -> String {
        let path = tree.root + "/lf.jsonl"
        try trace.write(to: path)
        return path
    }

    @Test func replayRunsTheTraceThroughTheClassifier() throws {
        struct Collector: PressureReadingConsumer {
            var readings: [PressureReading] = []
            mutating func consume(_ reading: PressureReading) { readings.append(reading) }
        }
        var classifier = PressureClassifier()
        var collector = Collector()
        let summary = PressureReplay.run(
            TraceReplaySource(trace: heatingTrace()), classifier: &classifier, consumer: &collector)
        #expect(summary.samples == 21)
        #expect(summary.simulated)
        #expect(collector.readings.allSatisfy { $0.simulated && $0.thermal == .simulated })
        #expect(collector.readings[0].sensors[0].source == .replay)
        #expect(summary.changes.map(\.to) == [.fair, .serious, .critical, .shutdown])
        #expect(summary.changes.map(\.time) == [5, 10, 18, 20].map(instant))
        #expect(summary.worstLevel == .shutdown)
        #expect(summary.secondsAtLevel["nominal"] == 5)
    }

    @Test(arguments: [
        ("{\"time\": 0}\n{\"time\": 1, \"sensor\": []}", "line 2: sensor: unknown key"),
        ("{\"time\": 1}\n{\"time\": 0}", "line 2: time: expected a time ≥ 1"),
        (
            "{\"time\": 0, \"sensors\": [{\"id\": \"a\", \"source\": \"libsensors\"}]}",
            "line 1: sensors[0].celsius"
        ),
        (
            "{\"time\": 0, \"sensors\": [{\"id\": \"a\", \"source\": \"sun\", \"celsius\": 3}]}",
            "line 1: sensors[0].source"
        ),
        ("not json", "line 1: "),
        ("", "expected at least one sample"),
    ])
    func badTracesNameTheLineAndField(text: String, message: String) throws {
        let tree = try FixtureTree()
        let path = tree.root + "/bad.jsonl"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try PressureTrace.read(from: path)
        } throws: { error in
            "\(error)".hasPrefix("\(path): \(message)")
                && (!text.hasPrefix("not") || "\(error)".contains("not valid JSON"))
        }
    }
}
