import FoundationEssentials
import LaunchTiming

/// Renders a launch report as one self-contained HTML page — the same SVG waterfall as the run
/// report (``LaunchWaterfall``: phases indented by nesting, marks as dashed lines) with the
/// same stylesheet; no scripts, no external resources.
public enum HTMLReportExporter {
    /// The report as an HTML document.
    public static func render(_ report: LaunchReport) -> String {
        let title = "Launch report" + (report.label.isEmpty ? "" : ": \(report.label)")
        let origin = report.origin == .processStart ? "process start" : "timeline start"
        let waterfall = LaunchWaterfall(
            phases: report.phases.map {
                LaunchPhaseSpan(
                    name: $0.name + ($0.isComplete ? "" : " (unfinished)"),
                    startSeconds: $0.start.seconds, durationSeconds: $0.duration.seconds,
                    depth: $0.depth)
            },
            marks: report.marks.map {
                LaunchWaterfall.Mark(name: $0.name, seconds: $0.time.seconds)
            })
        let firstFrame =
            report.timeToFirstPreviewFrame.map {
                " First preview frame at <b>\(HTMLText.duration($0.seconds))</b>."
            } ?? ""
        let failure =
            report.failure.map { " <b>Failed: \(HTMLText.escaped($0.description)).</b>" } ?? ""
        let notes =
            report.notes.isEmpty
            ? ""
            : "<ul class=\"context\">"
                + report.notes.map { "<li>\(HTMLText.escaped($0))</li>" }.joined() + "</ul>"
        let metadata = report.metadata.sorted { $0.key < $1.key }.map {
            "<p class=\"context\">\(HTMLText.escaped($0.key)): \(HTMLText.escaped($0.value))</p>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escaped(title))</title>
            <style>\(HTMLRunReport.style)</style></head><body>
            <h1>\(HTMLText.escaped(title))</h1>
            \(metadata.joined(separator: "\n"))
            <section><p class="lead">Times since the \(origin); total \(HTMLText.duration(report.totalDuration.seconds)).\(firstFrame)\(failure)</p>
            \(waterfall.render())
            \(notes)
            </section>
            </body></html>

            """
    }
}
