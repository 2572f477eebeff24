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
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            for (service, participant) in zip(services, participants) {
                group.addTask {
                    let endsGroup = service.ending == .endsGroup
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
                    if let participant {
                        try await participant.run { try await body() }
                    } else {
                        try await body()
                    }
                    return endsGroup
                }
            }
            setup?.leave()
            do {
                while let endsGroup = try await group.next() {
                    if endsGroup { break }
                }
            } catch is CancellationError {}
            group.cancelAll()
            // The others end on cancellation; an error one of them throws on the way out is
            // still the group's error.
            while true {
                do {
                    guard try await group.next() != nil else { break }
                } catch is CancellationError {}
            }
            // Finished, unless the group's task was cancelled: when every service returns by
            // itself, the group's work is done too.
            return Task.isCancelled ? .cancelled : .finished
        }
    }
}
