import Units

/// Runs services together on one clock, as swift-service-lifecycle's `ServiceGroup` does: the
/// first service whose end ends the group (``Service/Ending/endsGroup``), a service's failure,
/// or cancellation of the calling task (SIGINT, SIGTERM) cancels the rest, and ``run(setup:)``
/// returns once every one has returned. `headroom run` and `headroom serve` are each one group.
public struct ServiceGroup: Sendable {
    /// How a group ended.
    public enum End: Sendable, Equatable {
        /// A service whose end ends the group returned.
        case finished
        /// The group's task was cancelled.
        case cancelled
    }

    /// The services, in the order a virtual clock runs those due at the same instant.
    public let services: [Service]
    /// The clock they wait on.
    public let clock: any RunClock

    /// A group of `services` on `clock`.
    public init(_ services: [Service], on clock: any RunClock) {
        self.services = services
        self.clock = clock
    }

    /// Runs the services until one ends the group; `setup` (a participant that held the clock
    /// while the group was set up) leaves once they are all started. A service that ends the
    /// group, or fails, halts the clock first, so that no other does anything after that
    /// instant.
    ///
    /// - Throws: The first error a service throws (other than cancellation), after all have
    ///   stopped.
    public func run(setup: ClockParticipant? = nil) async throws -> End {
        let clock = self.clock
        // Enrolled in a fixed order before any starts: on a virtual clock that order is the
        // order in which services due at the same instant run.
        let participants = services.map { $0.isOnClock ? clock.enroll() : nil }
        let stops = services.compactMap { service -> (@Sendable () -> Void)? in
            guard case .afterOthers(let stop) = service.shutdown else { return nil }
            return stop
        }
        let (end, failure) = await withTaskGroup(of: Outcome.self) { group in
            for (service, participant) in zip(services, participants) {
                group.addTask {
                    let endsGroup = service.ending == .endsGroup
                    var outcome = Outcome(endsGroup: false, isSink: service.isSink)
                    let body = {
                        do {
                            try await service.body()
                        } catch  where !(error is CancellationError) {
                            // A failure ends the group at its instant, as an end does.
                            clock.halt()
                            throw error
                        }
                        if endsGroup { clock.halt() }
                    }
                    do {
                        if let participant {
                            try await participant.run { try await body() }
                        } else {
                            try await body()
                        }
                        outcome.endsGroup = endsGroup
                    } catch  where !(error is CancellationError) {
                        outcome.failure = error
                    } catch {}
                    return outcome
                }
            }
            setup?.leave()
            var running = Running(services: services) { for stop in stops { stop() } }
            // Until one ends the group, fails, or the group's task is cancelled.
            while !running.onlySinksLeft, let outcome = await group.next() {
                running.returned(outcome)
                if outcome.endsGroup || outcome.failure != nil || Task.isCancelled { break }
            }
            group.cancelAll()
            // The others end on cancellation, the sinks once they have; an error one of them
            // throws on the way out is still the group's error.
            while let outcome = await group.next() { running.returned(outcome) }
            // Finished, unless the group's task was cancelled: when every service returns by
            // itself, the group's work is done too.
            return (Task.isCancelled ? End.cancelled : .finished, running.failure)
        }
        if let failure { throw failure }
        return end
    }
}

/// How one service's body ended.
private struct Outcome: Sendable {
    /// It returned, and its return ends the group.
    var endsGroup: Bool
    /// It is stopped after the others (``Service/Shutdown/afterOthers(stop:)``).
    var isSink: Bool
    /// What it threw, other than cancellation.
    var failure: (any Error)?
}

extension Service {
    /// Whether the service is stopped after the others.
    fileprivate var isSink: Bool {
        if case .afterOthers = shutdown { return true }
        return false
    }
}

/// The services of a group that have not returned, and the sinks' stop once the others have.
private struct Running {
    private var othersLeft: Int
    private let stopSinks: () -> Void
    /// The first failure.
    private(set) var failure: (any Error)?

    init(services: [Service], stopSinks: @escaping () -> Void) {
        othersLeft = services.count { !$0.isSink }
        self.stopSinks = stopSinks
        if othersLeft == 0 { stopSinks() }
    }

    /// Whether every service other than the sinks has returned.
    var onlySinksLeft: Bool { othersLeft == 0 }

    /// Counts a service's return and keeps the first failure; once the last service other
    /// than a sink has returned, the sinks are told to stop.
    mutating func returned(_ outcome: Outcome) {
        if failure == nil { failure = outcome.failure }
        guard !outcome.isSink else { return }
        othersLeft -= 1
        if othersLeft == 0 { stopSinks() }
    }
}
