import Foundation
import Testing
import Units

@testable import Reports

@Suite struct HTMLRunReportTests {
    /// A five-minute run that heats up, is throttled twice by the governor, then recovers.
    static func sampleData() -> RunReportData {
        var pressure: [PressurePoint] = []
        var pipeline: [PipelinePoint] = []
        for second in stride(from: 0, through: 300, by: 5) {
            let time = Double(second)
            let heat = time < 180 ? 55 + time * 0.19 : 89 - (time - 180) * 0.12
            let level = heat >= 80 ? 2 : heat >= 70 ? 1 : 0
            let stale = second == 150
            pressure.append(
                PressurePoint(
                    timeSeconds: time, level: level, temperatureCelsius: stale ? nil : heat))
            let (target, strideValue) =
                time < 95 ? (30.0, 1) : time < 135 ? (24.0, 2) : time < 265 ? (15.0, 3) : (24.0, 2)
            let jitter = Double((second * 7) % 5) * 0.3
            pipeline.append(
                PipelinePoint(
                    timeSeconds: time, targetFrameRate: target, actualFrameRate: target - jitter,
                    inferenceStride: strideValue))
        }
        return RunReportData(
            title: "headroom run — tracking-1080p.json <sample>",
            context: ["host ci-runner-3 · generic-x86_64", "started 2026-11-29 15:00:00 UTC"],
            launchPhases: [
                LaunchPhaseSpan(name: "processStart", startSeconds: 0, durationSeconds: 0.012),
                LaunchPhaseSpan(
                    name: "sessionConfiguration", startSeconds: 0.012, durationSeconds: 0.083),
                LaunchPhaseSpan(name: "sessionStart", startSeconds: 0.095, durationSeconds: 0.215),
                LaunchPhaseSpan(
                    name: "outputInitialization", startSeconds: 0.31, durationSeconds: 0.11),
                LaunchPhaseSpan(
                    name: "firstPreviewFrame", startSeconds: 0.42, durationSeconds: 0.06),
                LaunchPhaseSpan(name: "deferredStart", startSeconds: 0.48, durationSeconds: 0.42),
            ],
            pressure: pressure,
            governorChanges: [
                GovernorChangeMark(timeSeconds: 95, summary: "fair: 30 → 24 fps, stride 1 → 2"),
                GovernorChangeMark(timeSeconds: 135, summary: "serious: 24 → 15 fps, stride 2 → 3"),
                GovernorChangeMark(timeSeconds: 265, summary: "fair: 15 → 24 fps, stride 3 → 2"),
            ],
            pipeline: pipeline,
            quality: [
                QualityFigure(name: "Frames", value: "7 214"),
                QualityFigure(name: "Dropped frames", value: "3 (0.04 %)"),
                QualityFigure(name: "MOTA", value: "0.871"),
                QualityFigure(name: "ID switches", value: "14", isConcern: true),
                QualityFigure(name: "Peak hardware cost", value: "0.93"),
            ])
    }

    @Test func reportIsSelfContained() {
        let html = HTMLRunReport(data: Self.sampleData()).render()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("src="))
        #expect(!html.contains("href="))
        #expect(!html.contains("url("))
        let externalReferences = html.components(separatedBy: "http").count - 1
        let svgNamespaces = html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1
        #expect(externalReferences == svgNamespaces)
    }

    @Test func everySectionIsDrawnAndGovernorChangesAreMarkedOnBothTimeCharts() {
        let data = Self.sampleData()
        let html = HTMLRunReport(data: data).render()
        #expect(html.components(separatedBy: "<svg").count - 1 == 3)
        #expect(html.components(separatedBy: "class=\"marker\"").count - 1 == 2 * 3)
        for phase in data.launchPhases {
            #expect(html.contains(">\(phase.name)</text>"))
        }
        for change in data.governorChanges {
            #expect(html.contains(HTMLText.escaped(change.summary)))
        }
        #expect(html.contains("Ready 900 ms after process start."))
        #expect(html.contains("<tr class=\"concern\"><th>ID switches</th>"))
        // The quality table shows the run's figures once each, adding none of its own.
        for figure in data.quality {
            #expect(html.components(separatedBy: "<th>\(figure.name)</th>").count - 1 == 1)
        }
        #expect(!html.contains("Worst pressure level") && !html.contains("Hottest sensor"))
        #expect(html.contains("1 reading had no readable sensor."))
    }

    @Test func staleReadingBreaksTheTemperatureLine() throws {
        let html = HTMLRunReport(data: Self.sampleData()).render()
        let pathStart = try #require(
            html.range(
                of: "<path d=\"", options: .backwards,
                range: html.startIndex..<html.range(of: "stroke=\"#d84315\"")!.lowerBound))
        let path = html[pathStart.upperBound...].prefix { $0 != "\"" }
        #expect(path.filter { $0 == "M" }.count == 2)
    }

    @Test func textIsEscaped() {
        var data = Self.sampleData()
        data.title = "<script>alert(1)</script>"
        data.governorChanges = [GovernorChangeMark(timeSeconds: 1, summary: "a \"b\" & <c>")]
        let html = HTMLRunReport(data: data).render()
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("a &quot;b&quot; &amp; &lt;c&gt;"))
    }

    @Test func emptyRunSaysWhatIsMissing() {
        let html = HTMLRunReport(data: RunReportData(title: "empty")).render()
        #expect(!html.contains("<svg"))
        for missing in [
            "launch phases", "pressure readings", "pipeline samples", "governor changes",
        ] {
            #expect(html.contains("No \(missing) recorded in this run."))
        }
    }

    @Test func writesTheFileAtomically() throws {
        let path =
            ProcessInfo.processInfo.environment["HEADROOM_SAMPLE_REPORT"]
            ?? NSTemporaryDirectory() + "report-\(UUID().uuidString).html"
        let report = HTMLRunReport(data: Self.sampleData())
        try report.write(to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == report.render())
        if ProcessInfo.processInfo.environment["HEADROOM_SAMPLE_REPORT"] == nil {
            try FileManager.default.removeItem(atPath: path)
        }
    }

    @Test(arguments: [0...1.0, 0...300, -2...7, 0...0.9, 55...89, 1000...1001])
    func roundTicksAreInsideTheRangeAndEvenlySpaced(range: ClosedRange<Double>) {
        let ticks = SVGTimeChart.roundTicks(range)
        #expect((3...11).contains(ticks.count))
        #expect(ticks.allSatisfy { range.contains($0) || abs($0 - range.upperBound) < 1e-9 })
        let steps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - steps[0]) < 1e-9 })
    }
}
