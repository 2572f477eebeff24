import Glibc
import Testing

@testable import Telemetry

/// Real sockets against a real libmicrohttpd daemon on an ephemeral loopback port.
@Suite(.serialized) struct MetricsServerTests {
    private func startedServer(
        _ configuration: MetricsServerConfiguration = MetricsServerConfiguration(
            listen: try! ListenAddress(parsing: "127.0.0.1:0"))
    ) throws -> (MetricsServer, RawHTTPClient, HeadroomMetrics) {
        let metrics = try HeadroomMetrics()
        metrics.publish(PressureStatus(level: 2, factorLevels: ["thermal": 2], headroom: 0.3))
        let server = MetricsServer(
            configuration: configuration,
            endpoint: MetricsEndpoint(registry: metrics.registry, status: { "{\"level\":2}" }))
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

    @Test func connectionLimitIsEnforced() throws {
        let configuration = MetricsServerConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), connectionLimit: 4, threads: 1)
        let (server, client, _) = try startedServer(configuration)
        defer { server.stop() }
        let held = try (0..<4).map { _ in try client.connect() }
        defer { for descriptor in held.dropFirst() { close(descriptor) } }
        // A fifth connection waits in the kernel's backlog, unanswered, until one of the four
        // closes; then it is served.
        let fifth = try client.connect()
        defer { close(fifth) }
        let request = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        #expect(send(fifth, request, request.utf8.count, Int32(MSG_NOSIGNAL)) > 0)
        var shortWait = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(
            fifth, SOL_SOCKET, SO_RCVTIMEO, &shortWait, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(recv(fifth, &buffer, buffer.count, 0) < 0)
        close(held[0])
        var longWait = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fifth, SOL_SOCKET, SO_RCVTIMEO, &longWait, socklen_t(MemoryLayout<timeval>.size))
        let count = recv(fifth, &buffer, buffer.count, 0)
        #expect(count > 0)
        #expect(String(decoding: buffer[..<max(count, 0)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    @Test func busyPortIsReportedAndStopReleasesIt() throws {
        let (server, client, _) = try startedServer()
        let address = try ListenAddress(parsing: "127.0.0.1:\(server.port)")
        let second = MetricsServer(
            configuration: MetricsServerConfiguration(listen: address),
            endpoint: MetricsEndpoint(registry: MetricsRegistry(), status: { nil }))
        #expect(throws: MetricsServerError.self) { try second.start() }
        server.stop()
        #expect(server.port == 0)
        #expect(throws: ClientError.self) { try client.get("/healthz") }
        try second.start()
        defer { second.stop() }
        #expect(try client.get("/status").hasPrefix("HTTP/1.1 503"))
    }

    @Test func outOfRangeBoundsAreRejected() throws {
        let configuration = MetricsServerConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), requestMemoryLimit: 10)
        let server = MetricsServer(
            configuration: configuration,
            endpoint: MetricsEndpoint(registry: MetricsRegistry(), status: { nil }))
        #expect(
            throws: MetricsServerError.invalidConfiguration(
                field: "requestMemoryLimit", expected: "4096...1048576, got 10")
        ) { try server.start() }
    }

    @Test func runEndsCleanlyWhenCancelled() async throws {
        let server = MetricsServer(
            configuration: MetricsServerConfiguration(
                listen: try ListenAddress(parsing: "127.0.0.1:0")),
            endpoint: MetricsEndpoint(registry: MetricsRegistry(), status: { nil }))
        let task = Task { try await server.run() }
        while server.port == 0 { await Task.yield() }
        #expect(try RawHTTPClient(port: server.port).get("/healthz").hasPrefix("HTTP/1.1 200"))
        task.cancel()
        try await task.value
        #expect(server.port == 0)
    }
}
