import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Telemetry

@Suite struct MetricsExporterTests {
    @Test func asksForTheStatusAtEachScrapeStatusRequestAndTextfileWrite() throws {
        let directory = NSTemporaryDirectory() + "exporter-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let metrics = try HeadroomMetrics()
        let asked = Atomic<Int>(0)
        let exporter = MetricsExporter(
            metrics: metrics,
            servers: [HTTPServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0"))],
            textfile: TextfileWriter(directory: directory),
            status: {
                // What an on-demand status does: made and published when it is read.
                asked.add(1, ordering: .relaxed)
                let status = PressureStatus(level: 3, json: "{\"level\":\"critical\"}")
                metrics.publish(status)
                return status
            })
        try exporter.start()
        #expect(asked.load(ordering: .relaxed) == 0)
        let client = RawHTTPClient(port: exporter.server?.port ?? 0)
        #expect(try client.get("/metrics").contains("\nheadroom_pressure_level 3.0\n"))
        #expect(asked.load(ordering: .relaxed) == 1)
        #expect(try client.get("/status").hasSuffix("{\"level\":\"critical\"}"))
        #expect(asked.load(ordering: .relaxed) == 2)
        exporter.stop()
        #expect(exporter.server?.port == 0)
        try exporter.writeTextfile()
        #expect(asked.load(ordering: .relaxed) == 3)
        let written = try String(contentsOfFile: directory + "/headroom.prom", encoding: .utf8)
        #expect(written.contains("\nheadroom_pressure_level 3.0\n"))
    }

    @Test func beforeTheFirstReadingStatusIs503AndTheTextfileHasNoLevel() throws {
        let directory = NSTemporaryDirectory() + "exporter-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let exporter = MetricsExporter(
            metrics: try HeadroomMetrics(),
            servers: [HTTPServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0"))],
            textfile: TextfileWriter(directory: directory), status: { nil })
        try exporter.start()
        defer { exporter.stop() }
        let client = RawHTTPClient(port: exporter.server?.port ?? 0)
        #expect(try client.get("/status").hasPrefix("HTTP/1.1 503"))
        try exporter.writeTextfile()
        let written = try String(contentsOfFile: directory + "/headroom.prom", encoding: .utf8)
        #expect(!written.contains("\nheadroom_pressure_level "))
    }
}
