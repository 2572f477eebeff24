import CWakeup
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a sampling thread blocks on between samples: a futex word (for ``stop()`` and
/// ``nudge()``, such as a manual clock moving) when there are no PSI triggers, or an `eventfd`
/// and the armed triggers waited on together with one `ppoll` when there are.
///
/// Waiting costs no task hop and no polling: the thread sleeps in the kernel until its
/// deadline, a trigger fires or it is stopped. Without triggers the wait is a futex wait with
/// an absolute `CLOCK_MONOTONIC` deadline, the cheapest sleep Linux has that another thread
/// can end (the same cost as `clock_nanosleep`, and it never wakes before the deadline). One
/// thread waits on a set at a time.
public final class WaitSet: Sendable {
    /// Why a wait ended.
    public enum Event: Equatable, Sendable {
        /// The deadline passed.
        case deadline
        /// PSI triggers fired for these resources.
        case triggered([PSIReading.Resource])
        /// ``WaitSet/stop()`` was called.
        case stopped
    }

    /// The armed PSI triggers.
    public let triggers: [PSITrigger]
    private let wakeDescriptor: Int32
    /// Counts nudges; the waiter sleeps on it.
    private let word = FutexWord()
    /// The count of nudges the waiter has seen, so a nudge before a wait is not lost.
    private let seenNudges = Atomic<UInt32>(0)
    private let isStoppedFlag = Atomic<Bool>(false)
    /// Triggers whose descriptor reported an error, by index: they are no longer waited on, so
    /// a broken trigger cannot make every wait return at once.
    private let brokenTriggers = Atomic<UInt64>(0)

    /// A wait set over `triggers` (at most 63).
    public init(triggers: [PSITrigger] = []) {
        precondition(triggers.count < 64, "at most 63 PSI triggers")
        self.triggers = triggers
        // Without an eventfd (descriptors exhausted) trigger waits are cut into short slices
        // instead, so a stop is still seen.
        wakeDescriptor = triggers.isEmpty ? -1 : headroom_eventfd()
    }

    deinit {
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { isStoppedFlag.load(ordering: .acquiring) }

    /// Blocks the calling thread up to `timeout` seconds (`nil`: until something happens).
    ///
    /// Returns `.stopped` once stopped, `.triggered` when triggers fired, and `nil` when the
    /// timeout passed or the set was nudged. Never call it from a task of the cooperative
    /// pool.
    public func wait(timeout: Double?) -> Event? {
        wait(until: timeout.map { Self.monotonicNanoseconds() + Int64(max(0, $0) * 1e9) })
    }

    /// Blocks the calling thread until the `CLOCK_MONOTONIC` time `deadline` in nanoseconds
    /// (`nil`: until something happens); returns as ``wait(timeout:)`` does.
    public func wait(until deadline: Int64?) -> Event? {
        if isStopped { return .stopped }
        return triggers.isEmpty ? waitForNudge(until: deadline) : waitForTriggers(until: deadline)
    }

    /// The futex wait: returns at the deadline, or at once for a nudge not yet seen.
    private func waitForNudge(until deadline: Int64?) -> Event? {
        let nudges = word.load()
        if nudges == seenNudges.load(ordering: .relaxed) {
            // A nudge after the load changes the word, and the wait returns at once.
            _ = headroom_futex_wait_until(word.pointer, nudges, deadline ?? -1)
        }
        seenNudges.store(word.load(), ordering: .relaxed)
        return isStopped ? .stopped : nil
    }

    /// The `ppoll` over the eventfd and the triggers.
    private func waitForTriggers(until deadline: Int64?) -> Event? {
        let timeout = deadline.map { max(0, $0 - Self.monotonicNanoseconds()) }
        let slice = wakeDescriptor >= 0 ? timeout : min(timeout ?? 100_000_000, 100_000_000)
        let broken = brokenTriggers.load(ordering: .relaxed)
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: triggers.count + 1) {
            requests in
            requests[0] = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            for (index, trigger) in triggers.enumerated() {
                let isBroken = broken & (1 << UInt64(index)) != 0
                requests[index + 1] = pollfd(
                    fd: isBroken ? -1 : trigger.descriptor, events: Int16(POLLPRI), revents: 0)
            }
            guard headroom_ppoll(requests.baseAddress, nfds_t(requests.count), slice ?? -1) > 0
            else { return isStopped ? .stopped : nil }
            if requests[0].revents & Int16(POLLIN) != 0 { drainWakeups() }
            if isStopped { return .stopped }
            var fired: [PSIReading.Resource] = []
            for (index, trigger) in triggers.enumerated() {
                let events = requests[index + 1].revents
                if events & Int16(POLLERR | POLLNVAL) != 0 {
                    brokenTriggers.bitwiseOr(1 << UInt64(index), ordering: .relaxed)
                } else if events & Int16(POLLPRI) != 0 {
                    fired.append(trigger.resource)
                }
            }
            return fired.isEmpty ? nil : .triggered(fired)
        }
    }

    /// `CLOCK_MONOTONIC` now, in nanoseconds.
    static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Wakes a waiting thread without stopping it; its wait returns `nil`. A nudge before
    /// the wait is kept: the next wait returns at once.
    public func nudge() {
        word.increment()
        _ = headroom_futex_wake(word.pointer)
        guard wakeDescriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Stops the set: a current wait and every later one return `.stopped` at once.
    public func stop() {
        isStoppedFlag.store(true, ordering: .releasing)
        nudge()
    }

    private func drainWakeups() {
        var count: UInt64 = 0
        _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
    }
}

/// A 32-bit word at a fixed address for `futex(2)`, touched only through the C shim's atomic
/// load and increment and the futex calls; hence safe to share between threads.
private final class FutexWord: @unchecked Sendable {
    let pointer = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)

    init() { pointer.initialize(to: 0) }

    deinit { pointer.deallocate() }

    func load() -> UInt32 { headroom_atomic_load(pointer) }

    func increment() { headroom_atomic_increment(pointer) }
}
