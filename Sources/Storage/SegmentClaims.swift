import Locking

/// A recording's space, claimed from the reserve ahead of its writes on a thread of its own.
/// Claiming a segment (a file removed and its bytes allocated to the recording, under the
/// reserve's lock) waits for the filesystem's journal: 10–110 ms on the development VM while
/// another program `fsync`s, long enough to fill the recording's queue. So the writer only asks
/// (``prepare(through:)``) and waits only when the claims have fallen behind its writes; the
/// thread keeps ``ahead`` bytes claimed past the furthest point asked for.
final class SegmentClaims: @unchecked Sendable {
    // Unchecked: `progress` is only touched while `condition` is locked.

    /// Claims one segment at `end` (the bytes allocated so far): the bytes claimed and the
    /// reserve's free bytes after, or `nil` when the reserve has no segment left.
    typealias Claim = @Sendable (_ end: Int64) throws(StorageError) -> (ByteCount, ByteCount)?

    private struct Progress {
        /// Bytes allocated so far, and the reserve's free bytes at the last claim.
        var end: Int64 = 0
        var free = ByteCount.zero
        /// How far the thread is to claim.
        var wanted: Int64 = 0
        /// The reserve ran out, or a claim failed: nothing more is claimed.
        var isExhausted = false
        var failure: StorageError?
        var isStopped = false
        var isThreadDone = false
    }

    /// Bytes kept claimed past the furthest point asked for.
    let ahead: Int64
    private let claim: Claim
    private let condition = ConditionLock()
    private var progress = Progress()

    /// Claims that keep `ahead` bytes claimed past what is asked for, each through `claim`,
    /// on a thread that starts now and ends with ``stop()`` (or when the reserve runs out).
    init(ahead: Int64, claim: @escaping Claim) {
        self.ahead = ahead
        self.claim = claim
        DetachedThread.start(name: "reserve-claims") { [self] in claimAhead() }
    }

    /// Bytes allocated, and the reserve's free bytes at the last claim.
    var allocated: (end: Int64, free: ByteCount) { locked { ($0.end, $0.free) } }

    /// Whether the bytes up to `end` are allocated, waiting only while a claim they need is
    /// under way; asks the thread to claim ``ahead`` past `end`. `false` once the reserve has
    /// run out short of `end`.
    ///
    /// - Throws: ``StorageError`` when a claim failed.
    func prepare(through end: Int64) throws(StorageError) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if end + ahead > progress.wanted {
            progress.wanted = end + ahead
            condition.broadcast()
        }
        while progress.end < end, !progress.isExhausted { condition.wait() }
        if progress.end < end, let failure = progress.failure { throw failure }
        return progress.end >= end
    }

    /// Stops claiming and waits for a claim under way; what is claimed stays the recording's.
    func stop() {
        condition.lock()
        progress.isStopped = true
        condition.broadcast()
        while !progress.isThreadDone { condition.wait() }
        condition.unlock()
    }

    /// The thread: claims while less than wanted is allocated, until stopped or exhausted.
    private func claimAhead() {
        condition.lock()
        defer {
            progress.isThreadDone = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            while progress.end >= progress.wanted, !progress.isStopped { condition.wait() }
            if progress.isStopped { return }
            let end = progress.end
            condition.unlock()
            let claimed: (ByteCount, ByteCount)?
            let failure: StorageError?
            do throws(StorageError) {
                claimed = try claim(end)
                failure = nil
            } catch {
                claimed = nil
                failure = error
            }
            condition.lock()
            if let (size, free) = claimed {
                progress.end = end + size.bytes
                progress.free = free
            } else {
                progress.isExhausted = true
                progress.failure = failure
            }
            condition.broadcast()
            if progress.isExhausted { return }
        }
    }

    private func locked<Value>(_ body: (Progress) -> Value) -> Value {
        condition.lock()
        defer { condition.unlock() }
        return body(progress)
    }
}
