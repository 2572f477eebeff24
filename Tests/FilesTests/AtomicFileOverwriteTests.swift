import Files
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

@Test func aSymlinkPlantedAtTheOldPredictableTemporaryNameIsNeverFollowed() throws {
    let directory = NSTemporaryDirectory() + "atomic-symlink-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let victim = directory + "/victim"
    try AtomicFile.write("precious", to: victim)
    // What an attacker plants: the name earlier versions used, and the destination itself.
    try FileManager.default.createSymbolicLink(
        atPath: directory + "/.report.json.\(getpid()).tmp", withDestinationPath: victim)
    try FileManager.default.createSymbolicLink(
        atPath: directory + "/report.json", withDestinationPath: victim)
    try AtomicFile.write("report", to: directory + "/report.json")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    #expect(try String(contentsOfFile: directory + "/report.json", encoding: .utf8) == "report")
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/report.json")
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
}

@Test func filesAre0644AndDirectories0755UnderTheUmask() throws {
    let directory = NSTemporaryDirectory() + "atomic-modes-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let previous = umask(0o022)
    defer { umask(previous) }
    try AtomicFile.write("x", to: directory + "/a/b/file")
    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
    #expect(try mode(directory + "/a/b/file") == 0o644)
    #expect(try mode(directory + "/a/b") == 0o755)
    umask(0o077)
    try AtomicFile.write("y", to: directory + "/c/file")
    #expect(try mode(directory + "/c/file") == 0o600)
    #expect(try mode(directory + "/c") == 0o700)
}
