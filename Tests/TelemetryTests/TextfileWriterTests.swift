import Foundation
import Testing

@testable import Telemetry

@Suite struct TextfileWriterTests {
    private func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "textfile-\(UUID().uuidString)"
        return path
    }

    @Test func writesTheExpositionAtomicallyWithNoTemporaryLeft() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let metrics = try HeadroomMetrics()
        metrics.publish(PressureStatus(level: 2, factorLevels: ["thermal": 2], headroom: 0.25))
        let writer = TextfileWriter(directory: directory)
        try writer.write(metrics.registry)
        let written = try String(contentsOfFile: writer.path, encoding: .utf8)
        #expect(written == metrics.registry.exposition(.prometheusText))
        #expect(written.contains("headroom_pressure_level 2.0\n"))
        metrics.publish(PressureStatus(level: 0, headroom: 0.9))
        try writer.write(metrics.registry)
        #expect(
            try String(contentsOfFile: writer.path, encoding: .utf8).contains(
                "headroom_pressure_level 0.0\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["headroom.prom"])
    }

    @Test func unwritableDirectoryThrowsNamingThePath() throws {
        let blocker = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        try Data("a file, not a directory".utf8).write(to: URL(fileURLWithPath: blocker))
        let writer = TextfileWriter(directory: blocker + "/sub")
        do {
            try writer.write(MetricsRegistry())
            Issue.record("expected the write to fail")
        } catch {
            #expect(error.file == writer.path)
        }
    }
}
