import Glibc
import TestSupport
import Testing

@testable import Telemetry

/// Real sockets against a real server on an ephemeral loopback port.
@Suite(.serialized) struct HTTPServerTests {
    private func startedServer(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(
            listen: try! ListenAddress(parsing: "127.0.0.1:0"))
    ) throws -> (HTTPServer, RawHTTPClient, HeadroomMetrics) {
        let metrics = try HeadroomMetrics()
        metrics.publish(PressureStatus(level: 2, factorLevels: ["thermal": 2], headroom: 0.3))
        let server = HTTPServer(
            configuration: configuration,
            endpoint: MetricsEndpoint(
                registry: metrics.registry,
                status: { PressureStatus(level: 2, json: "{\"level\":2}") }))
        try server.start()
        return (server, RawHTTPClient(port: server.port), metrics)
    }

    @Test func servesMetricsHealthAndStatus() throws {
        let (server, client, _) = try startedServer()
        defer { server.stop() }
        #expect(server.port != 0)
        let metrics = try client.get("/metrics")
        #expect(metrics.hasPrefix("HTTP/1.1 200"))
        #expect(metrics.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8"))
        #expect(metrics.contains("\r\n\r\n# HELP headroom_pressure_level"))
        #expect(metrics.contains("\nheadroom_pressure_level 2.0\n"))
        let open = try client.get(
            "/metrics", headers: ["Accept: " + ExpositionFormatTests.prometheusScrape])
        #expect(open.contains("Content-Type: application/openmetrics-text; version=1.0.0"))
        #expect(open.hasSuffix("# EOF\n"))
        #expect(try client.get("/healthz").hasSuffix("\r\n\r\nok\n"))
        #expect(try client.get("/status").hasSuffix("\r\n\r\n{\"level\":2}"))
        #expect(try client.get("/metrics?x=1").hasPrefix("HTTP/1.1 200"))
    }

    @Test func unknownPathsAndMethodsAreRefusedAndServiceContinues() throws {
        let (server, client, _) = try startedServer()
        defer { server.stop() }
        #expect(try client.get("/../../etc/passwd").hasPrefix("HTTP/1.1 404"))
        #expect(try client.get("/" + String(repeating: "x", count: 2000)).hasPrefix("HTTP/1.1 404"))
        let post = try client.exchange(
            "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        )
        #expect(post.hasPrefix("HTTP/1.1 405"))
        let nonsense = try client.exchange("NONSENSE\r\n\r\n")
        #expect(!nonsense.hasPrefix("HTTP/1.1 200"))
        #expect(try client.get("/metrics").hasPrefix("HTTP/1.1 200"))
    }

    @Test func oversizedHeadersAreRejectedAndServiceContinues() throws {
        let (server, client, _) = try startedServer()
        defer { server.stop() }
        let huge = "X-Filler: " + String(repeating: "a", count: 64 * 1024)
        let answer = try client.get("/metrics", headers: [huge])
        #expect(
            answer.hasPrefix("HTTP/1.1 431") || answer.hasPrefix("HTTP/1.1 414") || answer.isEmpty)
        #expect(!answer.contains("headroom_pressure_level"))
        let many = (0..<2000).map { "X-Header-\($0): value" }
        #expect(!(try client.get("/metrics", headers: many)).contains("headroom_pressure_level"))
        #expect(try client.get("/metrics").hasPrefix("HTTP/1.1 200"))
    }

    @Test func thousandIdleConnectionsDoNotStopMetrics() throws {
        let (server, client, _) = try startedServer()
        defer { server.stop() }
        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<1000 {
            idle.append(try client.connect())
        }
        // Half of them start a request and never finish it.
        for descriptor in idle.prefix(500) {
            _ = send(descriptor, "GET /metrics HTTP/1.1\r\nHost: x\r\n", 32, Int32(MSG_NOSIGNAL))
        }
        let answer = try client.get("/metrics")
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(answer.contains("headroom_pressure_level 2.0"))
    }

    @Test func aConnectionOverTheLimitClosesTheOldestIdleOneAndIsServed() throws {
        let configuration = HTTPServerConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), connectionLimit: 4,
            idleTimeoutSeconds: 600, threads: 1)
        let (server, client, _) = try startedServer(configuration)
        defer { server.stop() }
        let held = try (0..<4).map { _ in try client.connect() }
        defer { for descriptor in held { close(descriptor) } }
        let fifth = try client.connect()
        defer { close(fifth) }
        #expect(Self.waitForClose(held[0]))
        #expect(Self.answer(on: fifth, to: "/healthz").hasPrefix("HTTP/1.1 200"))
        for descriptor in held.dropFirst() {
            #expect(Self.isOpen(descriptor))
        }
    }

    @Test func aClientOverItsLimitLosesItsOwnOldestIdleConnection() throws {
        let configuration = HTTPServerConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), perClientConnectionLimit: 3,
            idleTimeoutSeconds: 600, threads: 1)
        let (server, client, _) = try startedServer(configuration)
        defer { server.stop() }
        let held = try (0..<3).map { _ in try client.connect() }
        defer { for descriptor in held { close(descriptor) } }
        let fourth = try client.connect()
        defer { close(fourth) }
        #expect(Self.waitForClose(held[0]))
        #expect(Self.answer(on: fourth, to: "/metrics").contains("headroom_pressure_level 2.0"))
        #expect(Self.isOpen(held[1]) && Self.isOpen(held[2]))
    }

    @Test func aScrapeIsAnsweredBesideAFloodFromItsOwnAddress() throws {
        // Far more idle connections than either limit, from the scraper's own address: a
        // server that refused connections at the limit would make this request wait for an
        // idle timeout.
        let configuration = HTTPServerConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), connectionLimit: 16,
            perClientConnectionLimit: 8, idleTimeoutSeconds: 600, threads: 2)
        let (server, client, _) = try startedServer(configuration)
        defer { server.stop() }
        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<300 {
            idle.append(try client.connect())
        }
        #expect(try client.get("/metrics").contains("headroom_pressure_level 2.0"))
    }

    @Test func silentConnectionsCloseAfterTheIdleTimeout() throws {
        let configuration = HTTPServerConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), idleTimeoutSeconds: 1)
        let (server, client, _) = try startedServer(configuration)
        defer { server.stop() }
        let silent = try client.connect()
        defer { close(silent) }
        let halfRequest = try client.connect()
        defer { close(halfRequest) }
        _ = send(halfRequest, "GET /metrics HTTP/1.1\r\n", 24, Int32(MSG_NOSIGNAL))
        #expect(Self.waitForClose(silent))
        #expect(Self.waitForClose(halfRequest))
        #expect(try client.get("/healthz").hasPrefix("HTTP/1.1 200"))
    }

    /// Whether the server closes `descriptor` (end of stream or reset) before the client's
    /// receive timeout (``hangBound``, far beyond any bound tested here).
    private static func waitForClose(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Whether `descriptor` is still open: nothing, not even its end, has arrived.
    private static func isOpen(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && errno == EAGAIN
    }

    /// Sends `GET path` on an open connection and returns the answer, up to the server's close.
    private static func answer(on descriptor: Int32, to path: String) -> String {
        RawHTTPClient.exchange(
            "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", on: descriptor)
    }

    @Test func busyPortIsReportedAndStopReleasesIt() throws {
        let (server, client, _) = try startedServer()
        let address = try ListenAddress(parsing: "127.0.0.1:\(server.port)")
        let second = HTTPServer(
            configuration: HTTPServerConfiguration(listen: address),
            endpoint: MetricsEndpoint(registry: MetricsRegistry(), status: { nil }))
        #expect(throws: HTTPServerError.self) { try second.start() }
        server.stop()
        #expect(server.port == 0)
        #expect(throws: ClientError.self) { try client.get("/healthz") }
        try second.start()
        defer { second.stop() }
        #expect(try client.get("/status").hasPrefix("HTTP/1.1 503"))
    }

    @Test(arguments: [
        (
            HTTPServerConfiguration(requestMemoryLimit: 10),
            HTTPServerError.invalidConfiguration(
                field: "requestMemoryLimit", expected: "4096...1048576, got 10")
        ),
        (
            HTTPServerConfiguration(perClientConnectionLimit: 0),
            .invalidConfiguration(field: "perClientConnectionLimit", expected: "1...60000, got 0")
        ),
        (
            HTTPServerConfiguration(idleTimeoutSeconds: 0),
            .invalidConfiguration(field: "idleTimeoutSeconds", expected: "1...3600, got 0")
        ),
        (
            HTTPServerConfiguration(idleTimeoutSeconds: 3601),
            .invalidConfiguration(field: "idleTimeoutSeconds", expected: "1...3600, got 3601")
        ),
    ])
    func outOfRangeBoundsAreRejected(
        configuration: HTTPServerConfiguration, error: HTTPServerError
    ) throws {
        var configuration = configuration
        configuration.listen = try ListenAddress(parsing: "127.0.0.1:0")
        let server = HTTPServer(
            configuration: configuration,
            endpoint: MetricsEndpoint(registry: MetricsRegistry(), status: { nil }))
        #expect(throws: error) { try server.start() }
        #expect(server.port == 0)
    }

    @Test func runEndsCleanlyWhenCancelled() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                listen: try ListenAddress(parsing: "127.0.0.1:0")),
            endpoint: MetricsEndpoint(registry: MetricsRegistry(), status: { nil }))
        let task = Task { try await server.run() }
        #expect(await waitUntil { server.port != 0 })
        #expect(try RawHTTPClient(port: server.port).get("/healthz").hasPrefix("HTTP/1.1 200"))
        task.cancel()
        try await task.value
        #expect(server.port == 0)
    }
}
