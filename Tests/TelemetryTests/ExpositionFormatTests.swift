import Testing

@testable import Telemetry

@Suite struct ExpositionFormatTests {
    /// What Prometheus 2.42 sends when it scrapes.
    static let prometheusScrape =
        "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
        + "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

    @Test(
        arguments: [
            (nil, ExpositionFormat.prometheusText),
            ("", .prometheusText),
            (prometheusScrape, .openMetrics),
            ("text/plain;version=0.0.4;q=0.5,*/*;q=0.1", .prometheusText),
            ("application/openmetrics-text", .openMetrics),
            ("application/openmetrics-text; version=0.0.1", .prometheusText),
            ("text/plain;q=0.9, application/openmetrics-text;version=1.0.0;q=0.3", .prometheusText),
            ("text/plain;q=0.3, Application/OpenMetrics-Text; q=0.9", .openMetrics),
            ("application/openmetrics-text;q=0", .prometheusText),
            ("image/png", .prometheusText),
            ("garbage;;;,,,=", .prometheusText),
        ] as [(String?, ExpositionFormat)])
    func acceptHeaderChoosesTheFormat(accept: String?, expected: ExpositionFormat) {
        #expect(ExpositionFormat.negotiated(accept: accept) == expected)
    }

    @Test func contentTypesNameTheirVersions() {
        #expect(ExpositionFormat.prometheusText.contentType.contains("version=0.0.4"))
        #expect(ExpositionFormat.openMetrics.contentType.hasPrefix("application/openmetrics-text"))
    }
}
