/// One long-running concern of a program — a loop on the clock, a server, a writer — as
/// swift-service-lifecycle's `Service` is: a body that runs until its work is done or its task
/// is cancelled, and what its end means for the group it is in (``ServiceGroup``).
public struct Service: Sendable {
    /// What it means for the group when a service's body returns.
    public enum Ending: Sendable {
        /// The group's work is over (a run's time is up, a trace ran out, a video ended): the
        /// others are cancelled.
        case endsGroup
        /// Nothing: the service works until the others are done (it returns on cancellation).
        case runsUntilCancelled
    }

    /// How a service is stopped when its group ends.
    public enum Shutdown: Sendable {
        /// Its task is cancelled, with every other service's.
        case onCancellation
        /// `stop` is called once every other service has returned: a sink — a writer — that
        /// must take everything the others give it, then flush. Its body does not end on
        /// cancellation (``ThreadedWork/service`` is one).
        case afterOthers(stop: @Sendable () -> Void)
    }

    /// A short name for people: `capture`, `governor`, `http`.
    public var name: String
    /// What the body's return means.
    public var ending: Ending
    /// Whether the body waits on the group's clock (a virtual clock moves only while every such
    /// body waits on it); one that waits on something else (a video's end, a socket, other
    /// participants) must say no.
    public var isOnClock: Bool
    /// How it is stopped when the group ends.
    public var shutdown: Shutdown
    /// The work: returns when done or cancelled; a throw (other than cancellation) is the
    /// group's failure.
    public var body: @Sendable () async throws -> Void

    /// A service named `name`.
    public init(
        _ name: String, ending: Ending, isOnClock: Bool = true,
        shutdown: Shutdown = .onCancellation, body: @escaping @Sendable () async throws -> Void
    ) {
        self.name = name
        self.ending = ending
        self.isOnClock = isOnClock
        self.shutdown = shutdown
        self.body = body
    }

    /// A service that holds something open until the group ends, then closes it: `close` runs
    /// when the group cancels it (a server started before the group, so that a taken port
    /// fails at once, is stopped this way).
    public static func holding(_ name: String, until close: @escaping @Sendable () -> Void)
        -> Service
    {
        Service(name, ending: .runsUntilCancelled, isOnClock: false) {
            await untilCancelled()
            close()
        }
    }
}

/// Returns when the calling task is cancelled (at once when it already is); waits without
/// polling.
public func untilCancelled() async {
    let waiting = CancellationWait()
    await withTaskCancellationHandler {
        await withCheckedContinuation { waiting.park($0) }
    } onCancel: {
        waiting.cancel()
    }
}
