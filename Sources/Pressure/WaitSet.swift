import CWakeup
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a sampling thread blocks on between samples: a wake-up `eventfd` (for ``stop()``, or a
/// manual clock moving) and any armed PSI triggers, waited on together with one `ppoll`.
///
/// Waiting costs no task hop and no polling: the thread sleeps in the kernel until its
/// deadline, a trigger fires or it is stopped.
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
    private let isStoppedFlag = Atomic<Bool>(false)
    /// Triggers whose descriptor reported an error, by index: they are no longer waited on, so
    /// a broken trigger cannot make every wait return at once.
    private let brokenTriggers = Atomic<UInt64>(0)

    /// A wait set over `triggers` (at most 63).
    public init(triggers: [PSITrigger] = []) {
        precondition(triggers.count < 64, "at most 63 PSI triggers")
        self.triggers = triggers
        // Without an eventfd (descriptors exhausted) waits are cut into short slices instead,
        // so a stop is still seen.
        wakeDescriptor = headroom_eventfd()
    }

    deinit {
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { isStoppedFlag.load(ordering: .acquiring) }

    /// Blocks the calling thread up to `timeout` seconds (`nil`: until something happens).
    ///
    /// Returns `.stopped` once stopped, `.triggered` when triggers fired, and `nil` when the
    /// timeout passed or the set was only nudged. Never call it from a task of the cooperative
    /// pool.
    public func wait(timeout: Double?) -> Event? {
        if isStopped { return .stopped }
        let slice = wakeDescriptor >= 0 ? timeout : min(timeout ?? 0.1, 0.1)
        let broken = brokenTriggers.load(ordering: .relaxed)
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: triggers.count + 1) {
            requests in
            requests[0] = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            for (index, trigger) in triggers.enumerated() {
                let isBroken = broken & (1 << UInt64(index)) != 0
                requests[index + 1] = pollfd(
                    fd: isBroken ? -1 : trigger.descriptor, events: Int16(POLLPRI), revents: 0)
            }
            let nanoseconds = slice.map { Int64(max(0, $0) * 1e9) } ?? -1
            guard headroom_ppoll(requests.baseAddress, nfds_t(requests.count), nanoseconds) > 0
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

    /// Wakes a waiting thread without stopping it; its ``wait(timeout:)`` returns `nil`.
    public func nudge() {
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
