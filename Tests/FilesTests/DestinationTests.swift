import Files
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Destinations are checked before the work: a regular file or nothing, never an empty path,
/// somewhere a file can be written.
struct DestinationTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "headroom-destination-\(UUID())"
    ).path

    init() throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
    }

    private func problem(_ path: String, as kind: Destination.Kind) throws -> String {
        try #require(throws: ConfigurationError.self) {
            try Destination(checking: path, as: kind)
        }.problem
    }

    @Test("a new name, an existing regular file and a missing subdirectory are fine")
    func accepted() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try AtomicFile.write("old", to: directory + "/old.json")
        for path in [directory + "/new.json", directory + "/old.json", directory + "/a/b/c.json"] {
            #expect(try Destination(checking: path, as: .file).path == path)
        }
        #expect(
            try Destination(checking: directory + "/reports", as: .directory).kind == .directory)
        #expect(try Destination(checking: directory, as: .directory).kind == .directory)
        // The check creates nothing: no probe left behind, no directory made.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["old.json"])
    }

    @Test("an empty path, a device, a FIFO and the wrong kind are refused, and stay as they were")
    func refused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try problem("", as: .file) == "expected a path, got an empty one")
        #expect(try problem("", as: .directory) == "expected a path, got an empty one")
        #expect(
            try problem("/dev/null", as: .file)
                == "is a character device; expected a regular file or a new name")
        let fifo = directory + "/f"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(try problem(fifo, as: .file) == "is a FIFO; expected a regular file or a new name")
        try AtomicFile.write("x", to: directory + "/file")
        #expect(
            try problem(directory + "/file", as: .directory)
                == "is a regular file; expected a directory or a new name")
        #expect(
            try problem(directory, as: .file)
                == "is a directory; expected a regular file or a new name")
        #expect(
            try problem(directory + "/file/inside.json", as: .file).hasSuffix("is not a directory"))
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("a place nothing can be written (/proc) and names too long are refused before the work")
    func unwritable() throws {
        #expect(try problem("/proc/x/run.json", as: .file).hasPrefix("cannot write in /proc"))
        #expect(try problem("/proc/x", as: .directory).hasPrefix("cannot write in /proc"))
        let long = String(repeating: "a", count: 256)
        #expect(try problem(directory + "/" + long, as: .file).contains("a name of 256 bytes"))
        let deep = String(repeating: "/abcdefgh", count: 500)
        #expect(try problem(deep, as: .file).contains("at most 4095"))
    }

    @Test("an atomic write refuses a device or FIFO at the destination, and writes a 255-byte name")
    func atomicWrite() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/f"
        #expect(mkfifo(fifo, 0o644) == 0)
        let error = try #require(throws: ConfigurationError.self) {
            try AtomicFile.write("x", to: fifo)
        }
        #expect(error.problem == "is a FIFO; expected a regular file or a new name")
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(throws: ConfigurationError.self) { try AtomicFile.write("x", to: "") }
        let longest = directory + "/" + String(repeating: "b", count: 255)
        try AtomicFile.write("kept", to: longest)
        #expect(try String(contentsOfFile: longest, encoding: .utf8) == "kept")
    }
}
