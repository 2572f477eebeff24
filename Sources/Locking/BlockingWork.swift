import Foundation

/// Blocking work — waiting for a writer thread, closing a child process, a semaphore — called
/// from async code without holding a thread of the cooperative pool: the work runs on a thread
/// of its own and the caller's task resumes with its result.
public enum BlockingWork {
    /// Runs `work` on a new thread and returns its result.
    public static func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async
        -> Result
    {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
