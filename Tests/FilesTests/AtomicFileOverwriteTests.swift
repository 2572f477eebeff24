import Files
import Foundation
import Testing

@Test func overwritingLeavesOnlyTheNewContentsAndNoTemporaryFile() throws {
    let directory = NSTemporaryDirectory() + "atomic-overwrite-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/nested/report.json"
    try AtomicFile.write("old", to: path)
    try AtomicFile.write("new contents", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new contents")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/nested")
    #expect(names == ["report.json"])
}

@Test func writingIntoAFileInsteadOfADirectoryFailsNamingThePath() throws {
    let file = NSTemporaryDirectory() + "atomic-blocker-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: file) }
    try AtomicFile.write("x", to: file)
    #expect(throws: ConfigurationError.self) { try AtomicFile.write("y", to: file + "/inner.json") }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
}
