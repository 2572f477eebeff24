/// A chart over time drawn as inline SVG: a shared time axis in seconds, a left value axis and
/// an optional right one, lines or steps, shaded time bands and labelled vertical markers.
struct SVGTimeChart {
    struct Axis {
        var title: String
        var range: ClosedRange<Double>
        /// Tick positions and their labels; empty asks for round numbers.
        var ticks: [(value: Double, label: String)] = []
    }

    struct Series {
        var points: [(time: Double, value: Double)]
        var isOnRightAxis = false
        var color: String
        var isDashed = false
        var isStep = false
    }

    struct Band {
        var start: Double
        var end: Double
        var color: String
    }

    struct Marker {
        var time: Double
        var label: String
    }

    var description: String
    var timeRange: ClosedRange<Double>
    var leftAxis: Axis
    var rightAxis: Axis?
    var series: [Series] = []
    var bands: [Band] = []
    var markers: [Marker] = []

    private let width = 880.0
    private let height = 240.0
    private let marginLeft = 64.0
    private let marginTop = 18.0
    private let marginBottom = 34.0
    private var marginRight: Double { rightAxis == nil ? 20 : 64 }
    private var plotWidth: Double { width - marginLeft - marginRight }
    private var plotHeight: Double { height - marginTop - marginBottom }

    func render() -> String {
        var svg = """
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            xmlns="http://www.w3.org/2000/svg"><title>\(HTMLText.escaped(description))</title>
            """
        for band in bands {
            let x0 = x(band.start)
            let x1 = x(band.end)
            svg += rect(x0, marginTop, max(x1 - x0, 0), plotHeight, band.color, extra: "")
        }
        svg += grid()
        for line in series {
            svg += path(line)
        }
        for (index, marker) in markers.enumerated() {
            let position = HTMLText.coordinate(x(marker.time))
            svg += """
                <line class="marker" x1="\(position)" x2="\(position)" y1="\(Int(marginTop))" \
                y2="\(Int(marginTop + plotHeight))"><title>\(HTMLText.escaped(marker.label))</title></line>\
                <circle class="marker-dot" cx="\(position)" cy="\(Int(marginTop))" r="8"/>\
                <text class="marker-number" x="\(position)" y="\(Int(marginTop) + 4)">\(index + 1)</text>
                """
        }
        svg += "</svg>"
        return svg
    }

    private func x(_ time: Double) -> Double {
        let span = timeRange.upperBound - timeRange.lowerBound
        let fraction = span > 0 ? (time - timeRange.lowerBound) / span : 0
        return marginLeft + min(max(fraction, 0), 1) * plotWidth
    }

    private func y(_ value: Double, _ axis: Axis) -> Double {
        let span = axis.range.upperBound - axis.range.lowerBound
        let fraction = span > 0 ? (value - axis.range.lowerBound) / span : 0
        return marginTop + plotHeight - min(max(fraction, 0), 1) * plotHeight
    }

    private func grid() -> String {
        var svg = ""
        let bottom = marginTop + plotHeight
        for tick in Self.roundTicks(timeRange) {
            let position = HTMLText.coordinate(x(tick))
            svg += """
                <line class="grid" x1="\(position)" x2="\(position)" y1="\(Int(marginTop))" \
                y2="\(Int(bottom))"/><text class="tick" x="\(position)" y="\(Int(bottom) + 16)" \
                text-anchor="middle">\(HTMLText.number(tick, decimals: 1))</text>
                """
        }
        svg += """
            <text class="axis-title" x="\(Int(marginLeft + plotWidth / 2))" \
            y="\(Int(height) - 2)" text-anchor="middle">time (s)</text>
            """
        for tick in ticks(leftAxis) {
            let position = HTMLText.coordinate(y(tick.value, leftAxis))
            svg += """
                <line class="grid" x1="\(Int(marginLeft))" x2="\(Int(marginLeft + plotWidth))" \
                y1="\(position)" y2="\(position)"/><text class="tick" x="\(Int(marginLeft) - 6)" \
                y="\(position)" dy="4" text-anchor="end">\(HTMLText.escaped(tick.label))</text>
                """
        }
        svg += axisTitle(leftAxis.title, x: 12)
        if let rightAxis {
            for tick in ticks(rightAxis) {
                let position = HTMLText.coordinate(y(tick.value, rightAxis))
                svg += """
                    <text class="tick" x="\(Int(marginLeft + plotWidth) + 6)" y="\(position)" \
                    dy="4">\(HTMLText.escaped(tick.label))</text>
                    """
            }
            svg += axisTitle(rightAxis.title, x: width - 10)
        }
        svg += rect(marginLeft, marginTop, plotWidth, plotHeight, "none", extra: " class=\"frame\"")
        return svg
    }

    private func axisTitle(_ title: String, x: Double) -> String {
        let middle = Int(marginTop + plotHeight / 2)
        return """
            <text class="axis-title" transform="translate(\(Int(x)),\(middle)) rotate(-90)" \
            text-anchor="middle">\(HTMLText.escaped(title))</text>
            """
    }

    /// A non-finite value is a gap: the line stops there and resumes at the next value.
    private func path(_ line: Series) -> String {
        let axis = line.isOnRightAxis ? (rightAxis ?? leftAxis) : leftAxis
        let points = line.points.filter { $0.time.isFinite }.sorted { $0.time < $1.time }
        var d = ""
        var isPenDown = false
        for point in points {
            guard point.value.isFinite else {
                isPenDown = false
                continue
            }
            let px = HTMLText.coordinate(x(point.time))
            let py = HTMLText.coordinate(y(point.value, axis))
            if !isPenDown {
                d += "M\(px) \(py)"
            } else {
                d += line.isStep ? "H\(px)V\(py)" : "L\(px) \(py)"
            }
            isPenDown = true
        }
        guard !d.isEmpty else { return "" }
        if line.isStep && isPenDown { d += "H\(HTMLText.coordinate(x(timeRange.upperBound)))" }
        let dash = line.isDashed ? " stroke-dasharray=\"6 4\"" : ""
        return "<path d=\"\(d)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>"
    }

    private func rect(
        _ x: Double, _ y: Double, _ width: Double, _ height: Double, _ fill: String, extra: String
    ) -> String {
        """
        <rect x="\(HTMLText.coordinate(x))" y="\(HTMLText.coordinate(y))" \
        width="\(HTMLText.coordinate(width))" height="\(HTMLText.coordinate(height))" \
        fill="\(fill)"\(extra)/>
        """
    }

    private func ticks(_ axis: Axis) -> [(value: Double, label: String)] {
        if !axis.ticks.isEmpty { return axis.ticks }
        return Self.roundTicks(axis.range).map { ($0, HTMLText.number($0, decimals: 2)) }
    }

    /// About five round values (1, 2 or 5 times a power of ten apart) inside `range`.
    static func roundTicks(_ range: ClosedRange<Double>) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let rough = span / 5
        var magnitude = 1.0
        while magnitude * 10 <= rough { magnitude *= 10 }
        while magnitude > rough { magnitude /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
        var tick = (range.lowerBound / step).rounded(.up) * step
        var result: [Double] = []
        while tick <= range.upperBound + step * 1e-9 {
            result.append(abs(tick) < step * 1e-9 ? 0 : tick)
            tick += step
        }
        return result
    }
}
