import Foundation
import TestSupport
import Testing

@testable import Telemetry

@Suite struct MetricsExporterTests {
    @Test func publishesEachStatusServesItAndWritesTheTextfile() async throws {
        let directory = NSTemporaryDirectory() + "exporter-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let exporter = MetricsExporter(
            metrics: try HeadroomMetrics(),
            server: HTTPServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0")),
            textfile: TextfileWriter(directory: directory))
        let (statuses, feed) = AsyncStream.makeStream(of: PressureStatus.self)
        let run = Task { try await exporter.run(statuses) }
        feed.yield(PressureStatus(level: 3, json: "{\"level\":\"critical\"}"))
        var port: UInt16 = 0
        while port == 0 || exporter.metrics.pressureSamples.value() != 1 {
            await Task.yield()
            port = exporter.server?.port ?? 0
        }
        let client = RawHTTPClient(port: port)
        #expect(try client.get("/metrics").contains("\nheadroom_pressure_level 3.0\n"))
        #expect(try client.get("/status").hasSuffix("{\"level\":\"critical\"}"))
        feed.finish()
        try await run.value
        #expect(exporter.server?.port == 0)
        let written = try String(contentsOfFile: directory + "/headroom.prom", encoding: .utf8)
        #expect(written.contains("\nheadroom_pressure_level 3.0\n"))
    }
}
