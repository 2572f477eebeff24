import Locking
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Threads of their own and the condition they wait on, without Foundation.
struct DetachedThreadTests {
    @Test("threads wait on a condition until another changes the state, and carry their names")
    func threadsWaitAndAreNamed() async {
        let condition = ConditionLock()
        let shared = Shared()
        let done = Completion<Void>()
        // Each thread waits for its turn, takes it and hands on: only a working condition
        // lets all eight through in order.
        for index in (0..<8).reversed() {
            DetachedThread.start(name: "headroom-t\(index)") {
                let name = Self.threadName()
                condition.lock()
                while shared.turn != index { condition.wait() }
                shared.names.append(name)
                shared.turn += 1
                condition.broadcast()
                condition.unlock()
                if index == 7 { done.complete(()) }
            }
        }
        await done.value
        condition.lock()
        #expect(shared.names == (0..<8).map { "headroom-t\($0)" })
        condition.unlock()
    }

    /// The calling thread's name, as `/proc` shows it.
    static func threadName() -> String {
        let descriptor = open("/proc/thread-self/comm", O_RDONLY)
        guard descriptor >= 0 else { return "?" }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            .trimmingSuffixNewline()
    }
}

/// The state the threads take turns on, guarded by the condition under test.
private final class Shared: @unchecked Sendable {
    var turn = 0
    var names: [String] = []
}

extension String {
    fileprivate func trimmingSuffixNewline() -> String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
