import Locking

/// A continuation parked until cancellation: ``cancel()`` resumes it, whether it comes before
/// or after ``park(_:)``.
final class CancellationWait: Sendable {
    private enum Phase {
        case waiting
        case parked(CheckedContinuation<Void, Never>)
        case cancelled
    }
    private let phase = LockedState(Phase.waiting)

    /// Parks `continuation` until ``cancel()``; resumes it at once after one.
    func park(_ continuation: CheckedContinuation<Void, Never>) {
        let isCancelled = phase.withLock { phase in
            guard case .waiting = phase else { return true }
            phase = .parked(continuation)
            return false
        }
        if isCancelled { continuation.resume() }
    }

    /// Resumes the parked continuation, or the one parked later.
    func cancel() {
        let parked = phase.withLock { phase -> CheckedContinuation<Void, Never>? in
            defer { phase = .cancelled }
            guard case .parked(let continuation) = phase else { return nil }
            return continuation
        }
        parked?.resume()
    }
}
