import LaunchTiming
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Children started without Foundation: pipes, exit statuses, time limits and forced ends.
struct ChildProcessTests {
    @Test("a child reads what we write, writes both outputs, and exits with its status")
    func pipesAndStatus() throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "cat; echo said >&2; exit 3"],
            input: .pipe, output: .pipe, errors: .pipe)
        let input = try #require(child.input)
        let text = Array("hello\n".utf8)
        #expect(write(input, text, text.count) == text.count)
        close(input)
        #expect(Self.readAll(try #require(child.output)) == "hello\n")
        #expect(Self.readAll(try #require(child.errors)) == "said\n")
        #expect(child.waitForExit() == 3)
        #expect(child.exitStatus == 3)
    }

    @Test("a child that runs on is still running after a time limit, and stopped it is 143")
    func limitsAndStop() throws {
        let child = try ChildProcess(executable: "sleep", arguments: ["600"])
        #expect(child.waitForExit(within: .milliseconds(50)) == nil)
        #expect(child.exitStatus == nil)
        #expect(child.stop(grace: .seconds(30)) == 128 + SIGTERM)
        // Reaped once: asked again, the same status, and no signal reaches another process.
        #expect(child.exitStatus == 128 + SIGTERM)
        child.send(SIGKILL)
    }

    @Test("a program that is not there is an error naming it")
    func missingProgram() {
        #expect {
            try ChildProcess(executable: "/nonexistent/ffmpeg", arguments: [])
        } throws: { error in
            "\(error)".contains("/nonexistent/ffmpeg")
        }
    }

    private static func readAll(_ descriptor: Int32) -> String {
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
