import Glibc

/// How long a test waits for work or an event before it calls it a hang: far beyond anything a
/// busy or cold machine takes (CI's first run after a cold build starved 10 s waits while other
/// suites held both of the cooperative pool's threads), so only a real hang reaches it. A test
/// waits for the event itself, never for a window of real time.
public let hangBound: Duration = .seconds(300)

/// Whether `condition` held within `bound`, checked every 10 ms, blocking the calling thread
/// (for synchronous code; an async test uses ``waitUntil(bound:_:)``).
public func blockUntil(bound: Duration = hangBound, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + bound
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        usleep(10_000)
    }
    return true
}

/// Whether `condition` held within `bound`, checked every millisecond without holding a thread
/// of the cooperative pool (the overload async tests get). A test waiting for another task
/// sleeps between checks rather than spin on `Task.yield()`: with both of a two-core machine's
/// pool threads spinning, work queued elsewhere (a dispatch queue, a thread the kernel
/// schedules behind them) may never run, and the suite hangs.
public func waitUntil(bound: Duration = hangBound, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + bound
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
