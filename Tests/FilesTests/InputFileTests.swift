import Files
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Input files are read whole, bounded, and only when they are regular files.
struct InputFileTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "headroom-input-\(UUID())")

    @Test("a regular file is read whole")
    func regular() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("session.json").path
        try AtomicFile.write("{}", to: path)
        #expect(try InputFile.read(path) == Array("{}".utf8))
    }

    @Test("a device, a FIFO and a directory are refused at once, naming what they are")
    func nonRegular() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes to the FIFO: a blocking open would hang here.
        for (path, kind) in [
            ("/dev/zero", "a character device"), (fifo, "a FIFO"), (directory.path, "a directory"),
        ] {
            let error = try #require(throws: ConfigurationError.self) { try InputFile.read(path) }
            #expect(error.file == path)
            #expect(error.problem.hasPrefix("is \(kind); expected a regular file"))
        }
    }

    @Test("a file over the limit is refused, stating the limit")
    func overLimit() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.json").path
        try AtomicFile.write([UInt8](repeating: 0, count: 3 << 20), to: path)
        let error = try #require(throws: ConfigurationError.self) {
            try InputFile.read(path, limit: 2 << 20)
        }
        #expect(error.problem == "is larger than the input limit of 2 MiB (2097152 bytes)")
        #expect(try InputFile.read(path, limit: 3 << 20).count == 3 << 20)
    }

    @Test("a missing file is an error naming it")
    func missing() {
        let error = try? #require(throws: ConfigurationError.self) {
            try InputFile.read("/nonexistent/headroom/session.json")
        }
        #expect(error?.description == "/nonexistent/headroom/session.json: no such file")
    }
}
