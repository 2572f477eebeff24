import Lifecycle
import Locking
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Headroom's own task threads, reached as a task executor (installing them as the global
/// executor would move every test of the process onto them): jobs run on `headroom-tasks`
/// threads, all of them, however many come at once.
@Suite(.timeLimit(.minutes(1))) struct TaskThreadsTests {
    /// The calling thread's name.
    private static func threadName() -> String {
        let descriptor = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(count, 0)).filter { $0 != 10 }, as: UTF8.self)
    }

    @Test("a task that prefers them runs on a headroom-tasks thread, and so do its children")
    func runsOnItsThreads() async {
        let names = await withTaskExecutorPreference(TaskThreads.shared) {
            await withTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { Self.threadName() } }
                return await group.reduce(into: [Self.threadName()]) { $0.append($1) }
            }
        }
        #expect(names == Array(repeating: "headroom-tasks", count: 9))
    }

    @Test("ten thousand jobs at once all run, on at most its count of threads")
    func manyJobs() async {
        let threads = LockedState(Set<UInt>())
        let sum = await withTaskExecutorPreference(TaskThreads.shared) {
            await withTaskGroup(of: Int.self) { group in
                for value in 1...10_000 {
                    group.addTask {
                        threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                        await Task.yield()
                        return value
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(sum == 10_000 * 10_001 / 2)
        #expect(threads.withLock { $0.count } <= TaskThreads.shared.count)
    }
}
