import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Catches signals without losing one. A plain handler does only what a handler may (it notes
/// the signal and posts a semaphore) and one thread, waiting on that semaphore, runs the
/// action registered for it. A dispatch signal source cannot promise that: its handler is
/// installed later, on dispatch's own thread, and a signal that comes in between meets the
/// `SIG_IGN` set to keep the default action away, and is gone. A command that printed
/// "serving on" and was stopped at once then served on.
public final class SignalWatcher: Sendable {
    /// The process's one watcher (a signal's disposition is the process's).
    public static let shared = SignalWatcher()

    private let actions = LockedState<[Int32: @Sendable (Int32) -> Void]>([:])

    private init() {
        // Made before any handler can run: a handler may not initialize a global.
        _ = caughtSignals.load(ordering: .relaxed)
        _ = signalPosted
        DetachedThread.start(name: "headroom-signals") { [actions] in
            while true {
                while sem_wait(signalPosted) != 0 {}
                let caught = caughtSignals.exchange(0, ordering: .acquiringAndReleasing)
                for number in Int32(1)..<64 where caught & (1 << UInt64(number)) != 0 {
                    actions.withLock { $0[number] }?(number)
                }
            }
        }
    }

    /// Runs `action` on the watcher's thread for each `number` signal from now on, instead of
    /// the signal's default action, until ``release(_:)``. A child process started meanwhile
    /// has the default action again (unlike an ignored signal, a handled one is reset by
    /// `exec`).
    public func watch(_ number: Int32, _ action: @escaping @Sendable (Int32) -> Void) {
        actions.withLock { $0[number] = action }
        signal(number, noteCaughtSignal)
    }

    /// The default action for `number` again.
    public func release(_ number: Int32) {
        signal(number, SIG_DFL)
        actions.withLock { $0[number] = nil }
    }
}

/// The signals caught and not yet acted on, one bit each.
private let caughtSignals = Atomic<UInt64>(0)

/// Posted by the handler once per signal caught.
private nonisolated(unsafe) let signalPosted: UnsafeMutablePointer<sem_t> = {
    let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    sem_init(semaphore, 0, 0)
    return semaphore
}()

/// The handler: lock-free and async-signal-safe throughout.
private func noteCaughtSignal(_ number: Int32) {
    caughtSignals.bitwiseOr(1 << UInt64(number), ordering: .acquiringAndReleasing)
    sem_post(signalPosted)
}
