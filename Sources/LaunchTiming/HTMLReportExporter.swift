import Foundation

/// Renders a launch report as one self-contained HTML page: a waterfall of the phases (bars
/// placed and sized by time, indented by nesting) with the marks as vertical lines; no scripts,
/// no external resources.
public enum HTMLReportExporter {
    /// The report as an HTML document.
    public static func render(_ report: LaunchReport) -> String {
        let total = max(report.totalDuration, 1e-9)
        let percent = { (seconds: Double) in String(format: "%.3f%%", seconds / total * 100) }
        let milliseconds = { (seconds: Double) in String(format: "%.3f ms", seconds * 1000) }
        let title = "Launch report" + (report.label.isEmpty ? "" : ": \(escaped(report.label))")
        var rows: [String] = []
        for phase in report.phases {
            let name = escaped(phase.name) + (phase.isComplete ? "" : " (unfinished)")
            rows.append(
                """
                <div class="row"><div class="name" style="padding-left:\(phase.depth)em">\(name)</div>\
                <div class="lane"><div class="bar depth\(min(phase.depth, 3))" \
                style="left:\(percent(phase.start));width:\(percent(phase.duration))" \
                title="\(name): \(milliseconds(phase.start)) + \(milliseconds(phase.duration))"></div>\
                </div><div class="time">\(milliseconds(phase.duration))</div></div>
                """)
        }
        let marks = report.marks.map { mark in
            """
            <div class="mark" style="left:\(percent(mark.time))" \
            title="\(escaped(mark.name)) at \(milliseconds(mark.time))"><span>\(escaped(mark.name))</span></div>
            """
        }
        let origin = report.origin == .processStart ? "process start" : "timeline start"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 2em; }
            .chart { position: relative; }
            .row { display: flex; align-items: center; height: 1.6em; }
            .name { width: 22em; white-space: nowrap; overflow: hidden; }
            .lane { position: relative; flex: 1; height: 1.1em; background: #f3f3f3; }
            .bar { position: absolute; height: 100%; min-width: 1px; }
            .depth0 { background: #3b6fb6; } .depth1 { background: #6a9bd8; }
            .depth2 { background: #9cc0ea; } .depth3 { background: #c7dcf4; }
            .time { width: 8em; text-align: right; font-variant-numeric: tabular-nums; }
            .marks { position: absolute; left: 22em; right: 8em; top: 0; bottom: 0; pointer-events: none; }
            .mark { position: absolute; top: 0; bottom: 0; border-left: 2px solid #d33; }
            .mark span { position: absolute; top: -1.4em; font-size: 12px; color: #d33; white-space: nowrap; }
            </style></head><body>
            <h1>\(title)</h1>
            <p>Times since the \(origin); total \(milliseconds(report.totalDuration)).\
            \(report.timeToFirstPreviewFrame.map { " First preview frame at <b>\(milliseconds($0))</b>." } ?? "")</p>
            <div class="chart">
            \(rows.joined(separator: "\n"))
            <div class="marks">\(marks.joined())</div>
            </div>
            </body></html>

            """
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
