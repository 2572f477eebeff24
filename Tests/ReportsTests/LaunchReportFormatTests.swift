import Files
import Foundation
import LaunchTiming
import Reports
import Testing
import Units

private func sampleReport() -> LaunchReport {
    LaunchReport(
        label: "deferred, \"quoted\"", startedAt: 1_700_000_000.25, origin: .processStart,
        phases: [
            PhaseInterval(
                name: "processStart", start: .milliseconds(0), duration: .milliseconds(12)),
            PhaseInterval(
                name: "sessionStart", start: .milliseconds(20), duration: .milliseconds(50)),
            PhaseInterval(
                name: "outputInitialization.preview", start: .milliseconds(21),
                duration: .milliseconds(10), depth: 1,
                parent: "sessionStart"),
            PhaseInterval(
                name: "deferredStart", start: .milliseconds(60), duration: .milliseconds(80)),
        ],
        marks: [PhaseMark(name: "firstPreviewFrame", time: .milliseconds(71))],
        metadata: ["session": "examples/sessions/photo-movie.json"])
}

@Test func jsonReportsRoundTrip() throws {
    let report = sampleReport()
    let data = LaunchReportFormat.json.render(report)
    #expect(try LaunchReport.decode(data) == report)
    let timeline = LaunchTimeline.startingAtProcessStart()
    timeline.measure(.appInit) {}
    timeline.mark(.firstPreviewFrame)
    let recorded = timeline.report(label: "live")
    #expect(try LaunchReport.decode(LaunchReportFormat.json.render(recorded)) == recorded)
}

@Test func jsonReportsWithUnknownKeysOrNegativeTimesAreRejectedNamingTheField() throws {
    let text = String(decoding: LaunchReportFormat.json.render(sampleReport()), as: UTF8.self)
    let unknown = text.replacingOccurrences(of: "\"label\"", with: "\"colour\" : 1, \"label\"")
    #expect(throws: ConfigurationError.self) { try LaunchReport.decode(Data(unknown.utf8)) }
    let negative = text.replacingOccurrences(of: "\"time\" : 0.071", with: "\"time\" : -1")
    do {
        _ = try LaunchReport.decode(Data(negative.utf8), file: "r.json")
        Issue.record("a negative time was accepted")
    } catch {
        #expect(error.description.hasPrefix("r.json: marks[0].time: expected seconds"))
    }
}

@Test func traceJSONHasTheFieldsTheTraceEventFormatRequires() throws {
    let report = sampleReport()
    let object = try JSONSerialization.jsonObject(
        with: Data(LaunchReportFormat.trace.render(report)))
    let document = try #require(object as? [String: Any])
    let events = try #require(document["traceEvents"] as? [[String: Any]])
    for event in events {
        #expect(event["name"] is String)
        let phase = try #require(event["ph"] as? String)
        #expect(["X", "i", "M"].contains(phase))
        #expect(event["ts"] is NSNumber)
        #expect(event["pid"] is NSNumber)
        #expect(event["tid"] is NSNumber)
        if phase == "X" { #expect(event["dur"] is NSNumber) }
        if phase == "i" { #expect(event["s"] as? String == "p") }
    }
    let complete = events.filter { $0["ph"] as? String == "X" }
    #expect(complete.count == report.phases.count)
    let session = try #require(complete.first { $0["name"] as? String == "sessionStart" })
    #expect((session["ts"] as? NSNumber)?.doubleValue == 20_000)
    #expect((session["dur"] as? NSNumber)?.doubleValue == 50_000)
}

@Test func overlappingPhasesThatDoNotNestGoOnSeparateTraceThreads() throws {
    let object = try JSONSerialization.jsonObject(
        with: Data(LaunchReportFormat.trace.render(sampleReport())))
    let events = try #require((object as? [String: Any])?["traceEvents"] as? [[String: Any]])
    let thread = { (name: String) in
        events.first { $0["name"] as? String == name && $0["ph"] as? String == "X" }?["tid"]
            as? Int
    }
    #expect(thread("outputInitialization.preview") == thread("sessionStart"))
    // deferredStart starts inside sessionStart but ends after it.
    #expect(thread("deferredStart") != thread("sessionStart"))
}

@Test func csvHasAHeaderARowPerPhaseAndMarkAndQuotesWhereNeeded() {
    var report = sampleReport()
    report.phases[1].name = "a,b"
    let text = String(decoding: LaunchReportFormat.csv.render(report), as: UTF8.self)
    let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(lines.first == CSVReportExporter.header)
    #expect(lines.count == 1 + report.phases.count + report.marks.count)
    #expect(lines.contains { $0.hasPrefix("phase,\"a,b\",0.020000000,0.050000000,0,,true") })
    #expect(lines.last == "mark,firstPreviewFrame,0.071000000,,,,")
}

@Test func markdownListsEveryPhaseIndentedByDepth() {
    let text = MarkdownReportExporter.render(sampleReport())
    #expect(text.contains("First preview frame at **71.000 ms**"))
    #expect(text.contains("| ↳ outputInitialization.preview | 21.000 | 10.000 |"))
    #expect(!text.contains("&"))
    #expect(text.contains("| deferredStart | 60.000 | 80.000 |"))
}

@Test func namesASpreadsheetWouldRunAsFormulasAreText() {
    var report = sampleReport()
    report.phases[0].name = "=cmd|' /C calc'!A0"
    report.phases[1].name = "@SUM(1,2)"
    report.marks[0].name = "-2+3"
    let text = String(decoding: LaunchReportFormat.csv.render(report), as: UTF8.self)
    #expect(text.contains("phase,'=cmd|' /C calc'!A0,"))
    #expect(text.contains("phase,\"'@SUM(1,2)\","))
    #expect(text.contains("mark,'-2+3,"))
}

@Test func markdownCarriesNoHTMLAndOneRowPerName() {
    var report = sampleReport()
    report.phases[0].name = "<script>alert(1)</script>"
    report.marks[0].name = "two\nlines & more"
    let text = MarkdownReportExporter.render(report)
    #expect(!text.contains("<script>"))
    #expect(text.contains("| &lt;script&gt;alert(1)&lt;/script&gt; |"))
    #expect(text.contains("| two lines &amp; more |"))
}

@Test func markdownShowsTerminalEscapesAsCodesInTheTitleToo() {
    var report = sampleReport()
    report.label = "app<b>\u{1B}[2J"
    report.phases[0].name = "bell\u{07}\u{202E}"
    let text = MarkdownReportExporter.render(report)
    #expect(text.hasPrefix("# Launch report: app&lt;b&gt;\\u{1B}[2J\n"))
    #expect(text.contains("| bell\\u{7}\\u{202E} |"))
    #expect(!text.unicodeScalars.contains { $0 != "\n" && $0.hidesText })
}

@Test func reportsAreWrittenWholeToTheirPath() throws {
    let directory = NSTemporaryDirectory() + "launch-report-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for format in LaunchReportFormat.allCases {
        let path = "\(directory)/report.\(format.fileExtension)"
        try format.write(sampleReport(), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data(format.render(sampleReport())))
    }
    #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory).count
            == LaunchReportFormat.allCases.count)
}

@Test func htmlHasABarPerPhaseAndALinePerMarkWithNamesEscaped() {
    var report = sampleReport()
    report.phases[3].name = "deferred<Start>"
    let html = HTMLReportExporter.render(report)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    // The run report's waterfall: an SVG bar per phase, a dashed line per mark.
    #expect(html.components(separatedBy: "<rect class=\"bar\"").count - 1 == report.phases.count)
    #expect(html.components(separatedBy: "<line class=\"marker\"").count - 1 == report.marks.count)
    #expect(html.contains("deferred&lt;Start&gt;") && !html.contains("deferred<Start>"))
    // A nested phase is indented.
    #expect(html.contains(">· outputInitialization.preview</text>"))
    #expect(!html.contains("<script"))
}
