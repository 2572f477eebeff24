import Files
import Foundation
import Testing

/// Atomic writes and the strict decoding helpers.
struct AtomicFileTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "headroom-files-\(UUID())")

    @Test("a write creates parents, replaces the old contents and leaves no temporary file")
    func replaces() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a/b/report.json").path
        try AtomicFile.write("old", to: path)
        try AtomicFile.write("new", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        let siblings = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("a/b").path)
        #expect(siblings == ["report.json"])
    }

    @Test("an unwritable destination throws an error naming it and keeps the old file")
    func unwritable() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.json").path
        try AtomicFile.write("kept", to: path)
        // A directory where the file should go cannot be replaced by rename.
        let blocked = directory.appendingPathComponent("blocked").path
        try FileManager.default.createDirectory(
            atPath: blocked + "/inside", withIntermediateDirectories: true)
        let error = try #require(throws: ConfigurationError.self) {
            try AtomicFile.write("x", to: blocked)
        }
        #expect(error.file == blocked)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept")
    }

    @Test("field paths read as users write them")
    func paths() {
        let path: [any CodingKey] = [
            AnyCodingKey(stringValue: "cameras"), AnyCodingKey(intValue: 1),
            AnyCodingKey(stringValue: "format"),
        ]
        #expect(fieldPath(path) == "cameras[1].format")
        #expect(
            ConfigurationError(file: "s.json", path: "cameras", problem: "expected one").description
                == "s.json: cameras: expected one")
    }
}
