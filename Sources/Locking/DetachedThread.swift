#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own, started detached: for work that blocks (a reader, a waiter, a writer),
/// kept off Swift's cooperative pool. A POSIX thread, so that the modules below the command line
/// need no Foundation (`Thread` is Foundation's, and pulls in its internationalisation data).
public enum DetachedThread {
    /// Runs `body` on a new thread, named `name` for `top` and debuggers (Linux keeps 15
    /// bytes of it); the thread ends when `body` returns.
    public static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadContext(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, runThread, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
    }
}

/// What a new thread runs, handed over through `pthread_create`'s one pointer.
private final class ThreadContext: Sendable {
    let name: String?
    let body: @Sendable () -> Void

    init(name: String?, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// A new thread's start: names it, runs its body, and releases what it was handed.
private func runThread(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
    if let name = context.name { nameThisThread(name) }
    context.body()
    return nil
}

/// Names the calling thread `name` (its first 15 bytes, as Linux keeps), through
/// `/proc/thread-self/comm`: Swift's Glibc module does not import `pthread_setname_np`.
private func nameThisThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}
