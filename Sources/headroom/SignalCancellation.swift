import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` in a task that SIGINT and SIGTERM cancel, so a daemon command ends through its
/// normal cancellation path (servers stopped, files closed) instead of being killed mid-write.
/// The default signal dispositions are restored afterwards.
func withSignalCancellation<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let task = Task { try await body() }
    let signals = [SIGINT, SIGTERM]
    let sources = signals.map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        return source
    }
    defer {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
    return try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}
