import Testing

@testable import Telemetry

@Suite struct MetricsEndpointTests {
    let registry = MetricsRegistry()

    private func endpoint(status: String? = "{\"level\":\"fair\"}") -> MetricsEndpoint {
        MetricsEndpoint(
            registry: registry, status: { status.map { PressureStatus(level: 1, json: $0) } })
    }

    @Test func metricsFollowTheAcceptHeader() throws {
        try registry.gauge("headroom_pressure_level", help: "Level.").set(1)
        let plain = endpoint().response(method: "GET", path: "/metrics", accept: nil)
        #expect(plain.status == 200)
        #expect(plain.contentType == ExpositionFormat.prometheusText.contentType)
        #expect(String(decoding: plain.body, as: UTF8.self).contains("headroom_pressure_level 1.0"))
        let open = endpoint().response(
            method: "GET", path: "/metrics", accept: "application/openmetrics-text")
        #expect(open.contentType == ExpositionFormat.openMetrics.contentType)
        #expect(String(decoding: open.body, as: UTF8.self).hasSuffix("# EOF\n"))
    }

    @Test func statusServesTheCallersJSONOr503BeforeTheFirstReading() {
        let ready = endpoint().response(method: "GET", path: "/status", accept: nil)
        #expect(ready.status == 200)
        #expect(ready.contentType == "application/json")
        #expect(ready.body == Array("{\"level\":\"fair\"}".utf8))
        let early = endpoint(status: nil).response(method: "GET", path: "/status", accept: nil)
        #expect(early.status == 503)
    }

    @Test(arguments: ["/nope", "/metrics/", "/METRICS", "//metrics", "/healthz/x"])
    func unknownPathsAre404(path: String) {
        #expect(endpoint().response(method: "GET", path: path, accept: nil).status == 404)
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS", "get"])
    func onlyGetAndHeadAreAllowed(method: String) {
        let response = endpoint().response(method: method, path: "/metrics", accept: nil)
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD")
    }

    @Test func healthzAnswersOK() {
        let response = endpoint().response(method: "HEAD", path: "/healthz", accept: nil)
        #expect(response.status == 200)
    }
}
