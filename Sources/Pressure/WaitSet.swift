import CWakeup
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a sampling thread blocks on between samples: a futex word (for ``stop()`` and
/// ``nudge()``, such as a manual clock moving) when there are no PSI triggers, or an `epoll`
/// instance over an `eventfd` and the armed triggers when there are.
///
/// Waiting costs no task hop and no polling: the thread sleeps in the kernel until its
/// deadline, a trigger fires or it is stopped. Without triggers the wait is a futex wait with
/// an absolute `CLOCK_MONOTONIC` deadline, the cheapest sleep Linux has that another thread
/// can end (the same cost as `clock_nanosleep`, and it never wakes before the deadline). With
/// them it is one `epoll_pwait2`, whose cost does not grow with the triggers (a `ppoll` over
/// them asked each file again at every wait: 8–10 µs a wake more). A trigger epoll cannot wait
/// on (a fixture tree's regular file) or that reports an error is left out of the set, so it
/// cannot make every wait return at once; where no descriptor is left for the set, the
/// triggers are not waited on and sampling goes on at its pace. One thread waits on a set at
/// a time.
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
    /// The `eventfd` a nudge writes to, or −1 (no triggers, or no descriptor left).
    private let wakeDescriptor: Int32
    /// The `epoll` instance over the `eventfd` (token 0) and the triggers (token: index + 1),
    /// or −1: then the wait is the futex's.
    private let pollDescriptor: Int32
    /// Counts nudges; the waiter sleeps on it.
    private let word = FutexWord()
    /// The count of nudges the waiter has seen, so a nudge before a wait is not lost.
    private let seenNudges = Atomic<UInt32>(0)
    private let isStoppedFlag = Atomic<Bool>(false)

    /// A wait set over `triggers` (at most 63).
    public init(triggers: [PSITrigger] = []) {
        precondition(triggers.count < 64, "at most 63 PSI triggers")
        self.triggers = triggers
        (wakeDescriptor, pollDescriptor) = Self.pollSet(over: triggers)
    }

    /// The `eventfd` and the `epoll` instance waiting on it and `triggers`; both −1 without
    /// triggers or when either cannot be made.
    private static func pollSet(over triggers: [PSITrigger]) -> (wake: Int32, poll: Int32) {
        guard !triggers.isEmpty else { return (-1, -1) }
        let wake = headroom_eventfd()
        let poll = headroom_epoll_create()
        guard wake >= 0, poll >= 0,
            headroom_epoll_add(poll, wake, UInt32(EPOLLIN.rawValue), 0) == 0
        else {
            if wake >= 0 { close(wake) }
            if poll >= 0 { close(poll) }
            return (-1, -1)
        }
        for (index, trigger) in triggers.enumerated() {
            // A file epoll refuses (EPERM: a regular file) is not waited on.
            _ = headroom_epoll_add(
                poll, trigger.descriptor, UInt32(EPOLLPRI.rawValue), UInt64(index + 1))
        }
        return (wake, poll)
    }

    deinit {
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
        if pollDescriptor >= 0 { close(pollDescriptor) }
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
        return pollDescriptor < 0 ? waitForNudge(until: deadline) : waitForTriggers(until: deadline)
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

    /// The `epoll` wait over the `eventfd` and the triggers.
    private func waitForTriggers(until deadline: Int64?) -> Event? {
        let timeout = deadline.map { max(0, $0 - Self.monotonicNanoseconds()) }
        let capacity = triggers.count + 1
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { tokens in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { events in
                let count = headroom_epoll_wait(
                    pollDescriptor, tokens.baseAddress, events.baseAddress, Int32(capacity),
                    timeout ?? -1)
                if isStopped { return .stopped }
                var fired: [PSIReading.Resource] = []
                for ready in 0..<max(0, Int(count)) {
                    guard tokens[ready] > 0 else {
                        drainWakeups()
                        continue
                    }
                    let trigger = triggers[Int(tokens[ready]) - 1]
                    if events[ready] & UInt32(EPOLLERR.rawValue) != 0 {
                        // Broken: waiting on it again would return at once, every time.
                        _ = headroom_epoll_remove(pollDescriptor, trigger.descriptor)
                    } else if events[ready] & UInt32(EPOLLPRI.rawValue) != 0 {
                        fired.append(trigger.resource)
                    }
                }
                return fired.isEmpty ? nil : .triggered(fired)
            }
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
