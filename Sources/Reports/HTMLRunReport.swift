import Files

/// A run report as one self-contained HTML file: inline CSS and SVG, no scripts and nothing
/// fetched from the network, so it opens anywhere and can be attached to a bug report.
///
/// Sections: launch waterfall; pressure level and hottest temperature over time with the
/// governor's changes marked; target and actual frame rate and inference stride over time;
/// the governor's changes listed; the quality summary; annotated stills when the run wrote an
/// annotated video (the only content not inline: image files beside the report).
public struct HTMLRunReport: Sendable {
    /// What the report draws.
    public var data: RunReportData

    /// The level names, in metric order (0 nominal … 4 shutdown).
    static let levelNames = ["nominal", "fair", "serious", "critical", "shutdown"]
    static let levelColors = ["#2e7d32", "#f9a825", "#ef6c00", "#c62828", "#6a1b9a"]

    /// Creates a report of `data`.
    public init(data: RunReportData) {
        self.data = data
    }

    /// The whole HTML document.
    public func render() -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escaped(data.title))</title>
            <style>\(Self.style)</style></head><body>
            <h1>\(HTMLText.escaped(data.title))</h1>

            """
        for line in data.context {
            html += "<p class=\"context\">\(HTMLText.escaped(line))</p>\n"
        }
        html += section("Launch", launchSection())
        html += section("Pressure and temperature", pressureSection())
        html += section("Frame rate and inference stride", pipelineSection())
        html += section("Governor changes", governorSection())
        html += section("Quality", qualitySection())
        if !data.stills.isEmpty {
            html += section("What the tracker saw", stillsSection())
        }
        return html + "</body></html>\n"
    }

    /// Writes ``render()`` to `path` atomically.
    ///
    /// - Throws: `ConfigurationError` naming `path` when it cannot be written.
    public func write(to path: String) throws(ConfigurationError) {
        try AtomicFile.write(render(), to: path)
    }

    private func section(_ title: String, _ body: String) -> String {
        "<section><h2>\(HTMLText.escaped(title))</h2>\n\(body)\n</section>\n"
    }

    private func empty(_ what: String) -> String {
        "<p class=\"empty\">No \(what) recorded in this run.</p>"
    }

    private func launchSection() -> String {
        guard !data.launchPhases.isEmpty else { return empty("launch phases") }
        let end = data.launchPhases.map { $0.startSeconds + $0.durationSeconds }.max() ?? 0
        return "<p class=\"lead\">Ready \(HTMLText.duration(end)) after process start.</p>"
            + LaunchWaterfall(phases: data.launchPhases).render()
    }

    /// The time axis shared by the pressure and pipeline charts.
    private var timeRange: ClosedRange<Double> {
        let times =
            data.pressure.map(\.timeSeconds) + data.pipeline.map(\.timeSeconds)
            + data.governorChanges.map(\.timeSeconds)
        let start = min(times.min() ?? 0, 0)
        let end = max(times.max() ?? 1, start + 1)
        return start...end
    }

    private var markers: [SVGTimeChart.Marker] {
        data.governorChanges.map { .init(time: $0.timeSeconds, label: $0.summary) }
    }

    private func pressureSection() -> String {
        guard !data.pressure.isEmpty else { return empty("pressure readings") }
        let points = data.pressure.sorted { $0.timeSeconds < $1.timeSeconds }
        let range = timeRange
        var bands: [SVGTimeChart.Band] = []
        for (index, point) in points.enumerated() {
            let end = index + 1 < points.count ? points[index + 1].timeSeconds : range.upperBound
            bands.append(.init(start: point.timeSeconds, end: end, color: bandColor(point.level)))
        }
        // A reading with every sensor stale breaks the temperature line rather than dipping.
        let temperatures = points.map { ($0.timeSeconds, $0.temperatureCelsius ?? .nan) }
        let readable = points.compactMap(\.temperatureCelsius)
        let coolest = readable.min() ?? 20
        let hottest = readable.max() ?? 100
        let temperatureRange = (coolest - 5).rounded(.down)...(hottest + 5).rounded(.up)
        let chart = SVGTimeChart(
            description: "Pressure level and hottest temperature over time",
            timeRange: range,
            leftAxis: .init(
                title: "pressure level", range: 0...4,
                ticks: Self.levelNames.enumerated().map { (Double($0.offset), $0.element) }),
            rightAxis: .init(title: "°C", range: temperatureRange),
            series: [
                .init(
                    points: points.map { ($0.timeSeconds, Double(min(max($0.level, 0), 4))) },
                    color: "#37474f", isStep: true),
                .init(points: temperatures, isOnRightAxis: true, color: "#d84315"),
            ],
            bands: bands, markers: markers)
        let stale = points.filter { $0.temperatureCelsius == nil }.count
        let staleNote =
            stale == 0 ? "" : " \(stale) reading\(stale == 1 ? "" : "s") had no readable sensor."
        return legend([
            ("#37474f", "pressure level (step)", false), ("#d84315", "hottest sensor (°C)", false),
            ("#1565c0", "governor change (numbered)", false),
        ]) + chart.render() + "<p class=\"note\">Background: level at each reading.\(staleNote)</p>"
    }

    private func pipelineSection() -> String {
        guard !data.pipeline.isEmpty else { return empty("pipeline samples") }
        let points = data.pipeline.sorted { $0.timeSeconds < $1.timeSeconds }
        let topRate = points.map { max($0.targetFrameRate, $0.actualFrameRate) }.max() ?? 30
        let topStride = max(points.map(\.inferenceStride).max() ?? 1, 1)
        let chart = SVGTimeChart(
            description: "Target and actual frame rate, and inference stride, over time",
            timeRange: timeRange,
            leftAxis: .init(title: "frames per second", range: 0...(topRate * 1.1).rounded(.up)),
            rightAxis: .init(
                title: "inference stride", range: 0...Double(topStride + 1),
                ticks: (1...topStride + 1).map { (Double($0), "\($0)") }),
            series: [
                .init(
                    points: points.map { ($0.timeSeconds, $0.targetFrameRate) }, color: "#1565c0",
                    isDashed: true, isStep: true),
                .init(
                    points: points.map { ($0.timeSeconds, $0.actualFrameRate) }, color: "#2e7d32"),
                .init(
                    points: points.map { ($0.timeSeconds, Double($0.inferenceStride)) },
                    isOnRightAxis: true, color: "#8e24aa", isStep: true),
            ],
            markers: markers)
        return legend([
            ("#1565c0", "target fps", true), ("#2e7d32", "actual fps", false),
            ("#8e24aa", "inference stride (right axis)", false),
        ]) + chart.render()
    }

    private func governorSection() -> String {
        guard !data.governorChanges.isEmpty else { return empty("governor changes") }
        var rows = "<table><tr><th>#</th><th>time</th><th>change</th></tr>"
        let changes = data.governorChanges.enumerated().sorted {
            $0.element.timeSeconds < $1.element.timeSeconds
        }
        for (index, change) in changes {
            rows += """
                <tr><td>\(index + 1)</td><td>\(HTMLText.number(change.timeSeconds, decimals: 1)) s\
                </td><td>\(HTMLText.escaped(change.summary))</td></tr>
                """
        }
        return rows + "</table>"
    }

    private func qualitySection() -> String {
        var rows = "<table class=\"quality\">"
        // The run's own figures (worst level and peak temperature among them, once).
        let figures = data.quality
        guard !figures.isEmpty else { return empty("quality figures") }
        for figure in figures {
            let mark = figure.isConcern ? " class=\"concern\"" : ""
            rows += """
                <tr\(mark)><th>\(HTMLText.escaped(figure.name))</th>\
                <td>\(HTMLText.escaped(figure.value))</td></tr>
                """
        }
        return rows + "</table>"
    }

    /// The annotated stills, each linking to its full-size file.
    private func stillsSection() -> String {
        data.stills.map { still in
            let path = HTMLText.escaped(still)
            return
                "<a href=\"\(path)\"><img class=\"still\" src=\"\(path)\" alt=\"annotated frame \(path)\"></a>"
        }.joined(separator: "\n")
    }

    private func bandColor(_ level: Int) -> String {
        Self.levelColors[min(max(level, 0), 4)] + "22"
    }

    private func legend(_ entries: [(color: String, label: String, isDashed: Bool)]) -> String {
        var html = "<div class=\"legend\">"
        for entry in entries {
            let style = entry.isDashed ? "dashed" : "solid"
            html += """
                <span><i style="border-top:3px \(style) \(entry.color)"></i>\
                \(HTMLText.escaped(entry.label))</span>
                """
        }
        var levels = ""
        for (name, color) in zip(Self.levelNames, Self.levelColors) {
            levels += "<span><b style=\"background:\(color)33\"></b>\(name)</span>"
        }
        return html + (entries.first?.label.hasPrefix("pressure") == true ? levels : "") + "</div>"
    }

    /// The stylesheet of Headroom's HTML reports (the launch page uses it too).
    static let style = """
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212121;\
        margin:24px auto;max-width:920px;padding:0 16px;background:#fafafa}\
        h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:0 0 8px}\
        img.still{width:48%;margin:0.5%;border:1px solid #ccc}\
        section{background:#fff;border:1px solid #e0e0e0;border-radius:8px;padding:14px 16px;\
        margin:14px 0}.context{margin:0;color:#616161}.lead{margin:0 0 6px}\
        .note,.empty{color:#757575;margin:4px 0 0}.chart{width:100%;height:auto;display:block}\
        .grid{stroke:#eeeeee}.frame{stroke:#bdbdbd}.tick{font-size:11px;fill:#616161}\
        .axis-title{font-size:11px;fill:#424242}.phase{font-size:12px;fill:#212121}\
        .bar{fill:#42a5f5}.marker{stroke:#1565c0;stroke-dasharray:3 3}\
        .marker-dot{fill:#1565c0}.marker-number{font-size:10px;fill:#fff;text-anchor:middle}\
        .legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:#424242;\
        margin-bottom:4px}.legend i{display:inline-block;width:22px;margin-right:5px;\
        vertical-align:middle}.legend b{display:inline-block;width:12px;height:12px;\
        margin-right:4px;vertical-align:middle;border:1px solid #bdbdbd}\
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;\
        border-bottom:1px solid #eeeeee}.quality th{width:40%;font-weight:500}\
        tr.concern td{color:#c62828;font-weight:600}
        """
}
