import Glibc
import Testing

@testable import Files

/// The process's facts read from the C library, as `ProcessInfo` and `UUID` gave them.
struct ProcessFactsTests {
    @Test("the environment holds what setenv put there, a value with = whole")
    func environment() {
        setenv("HEADROOM_FACTS_TEST", "a=b c", 1)
        defer { unsetenv("HEADROOM_FACTS_TEST") }
        let environment = ProcessFacts.environment
        #expect(environment["HEADROOM_FACTS_TEST"] == "a=b c")
        #expect(environment["PATH"] == String(cString: getenv("PATH")))
    }

    @Test("the host name is the kernel's")
    func hostName() throws {
        let descriptor = open("/proc/sys/kernel/hostname", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &buffer, buffer.count)
        let kernel = String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
        #expect(ProcessFacts.hostName.map { $0 + "\n" } == kernel)
    }

    @Test("a unique name is 32 lowercase hex digits, never the same twice")
    func uniqueName() {
        let names = (0..<100).map { _ in ProcessFacts.uniqueName() }
        #expect(Set(names).count == 100)
        #expect(names.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(names.allSatisfy { $0 == $0.lowercased() })
    }
}
