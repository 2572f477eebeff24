import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Which stop signal (SIGINT or SIGTERM) reached a command, if any; a command that stopped
/// because of one exits with ``exitCode`` (130 or 143, as shells report a signal).
public final class StopSignal: Sendable {
    private let number = Atomic<Int32>(0)

    /// No signal received yet.
    public init() {}

    /// The signal received, or `nil`.
    public var received: Int32? {
        let value = number.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// `128 + signal` once a signal arrived, else `nil`.
    public var exitCode: Int32? { received.map { 128 + $0 } }

    fileprivate func record(_ signal: Int32) {
        _ = number.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing)
    }
}

/// Runs `body` in a task that SIGINT and SIGTERM cancel, so a command ends through its normal
/// cancellation path (servers stopped, reports written, files closed) instead of being killed
/// mid-write. `stop` records which signal came. A second signal after the first ends the
/// process at once (the default disposition is restored when the first arrives), for a user
/// who does not want to wait. The default dispositions are restored afterwards.
public func withSignalCancellation<Result: Sendable>(
    _ stop: StopSignal = StopSignal(),
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    // The signals are watched before `body` starts, so a signal that `body`'s own work
    // provokes (a client that sees the run begin and stops it) is never lost.
    let started = LockedState<Task<Result, any Error>?>(nil)
    let signals = [SIGINT, SIGTERM]
    let watcher = SignalWatcher.shared
    for number in signals {
        watcher.watch(number) { number in
            stop.record(number)
            for other in signals { watcher.release(other) }
            started.withLock { $0 }?.cancel()
        }
    }
    defer { for number in signals { watcher.release(number) } }
    let task = Task { try await body() }
    started.withLock { $0 = task }
    if stop.received != nil { task.cancel() }
    return try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}
