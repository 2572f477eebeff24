import LaunchTiming

/// One concurrent part of a run — the stand's motors, the pressure sampler and governor, the
/// progress sampler, the run's timer, the end of a video — with `run()` that ends on
/// cancellation, and what its end means for the run.
struct RunService: Sendable {
    /// What it means when the service's `run()` returns.
    enum Ending: Sendable {
        /// The run is over: its time is up, its pressure trace ran out, its video ended.
        case endsRun
        /// Nothing: the service runs until the others are done (it returns on cancellation).
        case runsUntilCancelled
    }

    var ending: Ending
    /// Whether the service waits on the run's clock (a virtual clock moves only while it
    /// waits); one that waits on something else (a video's end) must say no.
    var isOnClock = true
    var body: @Sendable () async throws -> Void
}

/// How a group of services ended.
enum RunEnd: Sendable, Equatable {
    /// A service whose end ends the run returned.
    case finished
    /// The run's task was cancelled (SIGINT, SIGTERM).
    case cancelled
}

/// Runs a run's services together on one clock: the first to end the run (or cancellation, or
/// a service's error) cancels the rest, and this returns once every one has returned.
enum RunServices {
    /// Runs `services` on `clock` until one ends the run; `setup` (the participant that held
    /// the clock while the run was set up) leaves once they are all started.
    ///
    /// - Throws: The first error a service throws (other than cancellation), after all have
    ///   stopped.
    static func run(_ services: [RunService], on clock: any RunClock, setup: ClockParticipant)
        async throws -> RunEnd
    {
        // Enrolled in a fixed order before any starts: on a virtual clock that order is the
        // order in which services due at the same instant run.
        let participants = services.map { $0.isOnClock ? clock.enroll() : nil }
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            for (service, participant) in zip(services, participants) {
                group.addTask {
                    let ending = service.ending
                    // A run's end is an instant: the clock stops there before this service
                    // leaves it, so no other service does anything after it.
                    let body = {
                        try await service.body()
                        if ending == .endsRun { clock.halt() }
                    }
                    if let participant {
                        try await participant.run { try await body() }
                    } else {
                        try await body()
                    }
                    return ending == .endsRun
                }
            }
            setup.leave()
            var end = RunEnd.cancelled
            do {
                while let endsRun = try await group.next() {
                    if endsRun {
                        end = .finished
                        break
                    }
                }
            } catch is CancellationError {}
            group.cancelAll()
            // The others end on cancellation; an error one of them throws on the way out
            // is still the run's error.
            while true {
                do {
                    guard try await group.next() != nil else { break }
                } catch is CancellationError {}
            }
            return Task.isCancelled ? .cancelled : end
        }
    }
}
