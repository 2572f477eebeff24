/// The launch phases as an SVG waterfall — the one both the run report and the launch report
/// draw: one row per phase (indented by nesting), a bar from its start to its end on a shared
/// axis in milliseconds since process start, its duration written beside it, and the marks
/// (first preview frame, …) as dashed vertical lines.
struct LaunchWaterfall {
    /// A moment on the timeline.
    struct Mark {
        var name: String
        var seconds: Double
    }

    var phases: [LaunchPhaseSpan]
    var marks: [Mark] = []

    private let width = 880.0
    private let labelWidth = 230.0
    private let rowHeight = 24.0
    private let top = 8.0
    private let axisHeight = 30.0

    func render() -> String {
        let end =
            (phases.map { $0.startSeconds + $0.durationSeconds } + marks.map(\.seconds)).max() ?? 0
        let span = max(end, 1e-6) * 1.12  // room for the last bar's label
        let plotWidth = width - labelWidth - 16
        // Two lines of mark names, so close marks alternate instead of overlapping.
        let markRow = marks.isEmpty ? 0 : rowHeight + 12
        let height = top + markRow + Double(phases.count) * rowHeight + axisHeight
        func x(_ seconds: Double) -> Double { labelWidth + max(seconds, 0) / span * plotWidth }
        var svg = """
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            xmlns="http://www.w3.org/2000/svg"><title>Launch phases</title>
            """
        let axisY = top + markRow + Double(phases.count) * rowHeight
        for tick in SVGTimeChart.roundTicks(0...(span * 1000)) {
            let position = HTMLText.coordinate(x(tick / 1000))
            svg += """
                <line class="grid" x1="\(position)" x2="\(position)" y1="\(Int(top))" \
                y2="\(Int(axisY))"/><text class="tick" x="\(position)" y="\(Int(axisY) + 16)" \
                text-anchor="middle">\(HTMLText.number(tick, decimals: 1))</text>
                """
        }
        svg += """
            <text class="axis-title" x="\(Int(labelWidth + plotWidth / 2))" y="\(Int(height) - 2)" \
            text-anchor="middle">ms since process start</text>
            """
        var previousLabel: (x: Double, line: Int)?
        for mark in marks.sorted(by: { $0.seconds < $1.seconds }) {
            let markX = x(mark.seconds)
            let line = previousLabel.map { markX - $0.x < 110 ? 1 - $0.line : 0 } ?? 0
            previousLabel = (markX, line)
            let position = HTMLText.coordinate(markX)
            let name = HTMLText.escaped(mark.name)
            svg += """
                <line class="marker" x1="\(position)" x2="\(position)" y1="\(Int(top + markRow) - 6)" \
                y2="\(Int(axisY))"><title>\(name) at \(HTMLText.duration(mark.seconds))</title></line>\
                <text class="tick" x="\(position)" y="\(Int(top) + 10 + 12 * line)" \
                text-anchor="middle">\(name)</text>
                """
        }
        for (row, phase) in phases.enumerated() {
            let rowTop = top + markRow + Double(row) * rowHeight
            let barX = x(phase.startSeconds)
            let barWidth = max(x(phase.startSeconds + phase.durationSeconds) - barX, 1.5)
            let name = HTMLText.escaped(phase.name)
            let duration = HTMLText.duration(phase.durationSeconds)
            svg += """
                <text class="phase" x="\(Int(labelWidth) - 8)" y="\(Int(rowTop + rowHeight / 2) + 4)" \
                text-anchor="end">\(String(repeating: "· ", count: phase.depth))\(name)</text>\
                <rect class="bar" x="\(HTMLText.coordinate(barX))" y="\(Int(rowTop) + 4)" \
                width="\(HTMLText.coordinate(barWidth))" height="\(Int(rowHeight) - 8)" rx="3">\
                <title>\(name): \(duration)</title></rect>\
                <text class="tick" x="\(HTMLText.coordinate(barX + barWidth + 5))" \
                y="\(Int(rowTop + rowHeight / 2) + 4)">\(duration)</text>
                """
        }
        return svg + "</svg>"
    }
}
