import Locking
import Tracking
import Units

/// A simulated motorized stand with the behaviour of a DockKit accessory: docked state and
/// button events as an `AsyncSequence`, system tracking driven by observations, velocity and
/// orientation commands, animations, and rate limits, all on top of ``StandMotors``.
///
/// Time is the stand's own simulated time: ``advance(by:)`` steps it (tests, offline runs),
/// ``run(tick:clock:)`` steps it on a run's clock (real or virtual) until cancelled.
public actor SimulatedStand {
    private enum Motion {
        case velocity
        case orientation(yaw: Double, pitch: Double)
        case animation(StandAnimation, startYaw: Double, startPitch: Double, startTime: Double)
        case returning(StandAnimation, yaw: Double, pitch: Double)
    }

    /// The motors; read their state with ``motionState``.
    public private(set) var motors: StandMotors
    /// Whether a device is on the stand.
    public private(set) var isDocked = true
    /// Whether the stand frames subjects by itself from observations.
    public private(set) var isSystemTrackingEnabled = true
    /// How subjects are framed under system tracking.
    public var framingMode: FramingMode {
        framer.mode
    }
    /// Where subjects are framed under system tracking.
    public var regionOfInterest: RegionOfInterest {
        framer.region
    }
    /// The last framing computed from observations, if any.
    public private(set) var lastFraming: FramingResult?
    /// The stand's own control commands the motors refused (a velocity that is not a finite
    /// number: the motors were stopped instead of keeping the last one).
    public private(set) var refusedCommands = RefusedCommands()

    private var motion = Motion.velocity
    private var observationLimiter: RateLimiter
    private var requestLimiter: RateLimiter
    private var selector = SubjectSelector()
    private var framer = Framer()
    private var controller = PanTiltController()
    private var lastObservationTime: Double?
    private var subjectVelocity: (x: Double, y: Double) = (0, 0)
    private let broadcast = Broadcast<DockEvent>()

    /// Creates a stand.
    ///
    /// - Parameters:
    ///   - motors: the motors (their limits are validated when they are created).
    ///   - observationsPerSecond: the highest rate of custom observations, 10...30 Hz.
    ///   - requestsPerSecond: the highest rate of orientation and animation requests (2).
    /// - Throws: ``DockError/invalidCommand(_:)`` when a rate is out of range.
    public init(
        motors: StandMotors, observationsPerSecond: Int = 30, requestsPerSecond: Int = 2
    ) throws(DockError) {
        guard (10...30).contains(observationsPerSecond) else {
            throw .invalidCommand(
                "observationsPerSecond: expected 10...30, got \(observationsPerSecond)")
        }
        guard requestsPerSecond >= 1 else {
            throw .invalidCommand(
                "requestsPerSecond: expected at least 1, got \(requestsPerSecond)")
        }
        self.motors = motors
        observationLimiter = RateLimiter(maximum: observationsPerSecond)
        requestLimiter = RateLimiter(maximum: requestsPerSecond)
    }

    /// The motors' positions, velocities and stand time.
    public var motionState: MotionState { motors.state }

    /// The stand's events from now on; each call gives an independent stream that ends when
    /// the consumer stops iterating.
    public func events() -> AsyncStream<DockEvent> {
        broadcast.subscribe(bufferingPolicy: .bufferingNewest(64))
    }

    private func emit(_ event: DockEvent) {
        broadcast.yield(event)
    }

    /// Simulates placing a device on the stand.
    public func dock() {
        guard !isDocked else { return }
        isDocked = true
        emit(.docked)
    }

    /// Simulates taking the device off: the motors stop.
    public func undock() {
        guard isDocked else { return }
        isDocked = false
        motion = .velocity
        motors.stop()
        emit(.undocked)
    }

    /// Simulates the tracking button: toggles system tracking.
    public func pressTrackingButton() {
        emit(.trackingButtonPressed)
        setSystemTracking(!isSystemTrackingEnabled)
    }

    /// Turns system tracking on or off; turning it off stops the motors.
    public func setSystemTracking(_ enabled: Bool) {
        guard enabled != isSystemTrackingEnabled else { return }
        isSystemTrackingEnabled = enabled
        motion = .velocity
        motors.stop()
        emit(.systemTrackingChanged(enabled))
    }

    /// Sets the framing mode used under system tracking.
    public func setFramingMode(_ mode: FramingMode) { framer.mode = mode }

    /// Sets the region of interest used under system tracking.
    public func setRegionOfInterest(_ region: RegionOfInterest) { framer.region = region }

    /// Commands pitch and yaw angular velocities (radians per second), clamped to the limits.
    ///
    /// - Throws: ``DockError/notDocked``, ``DockError/systemTrackingEnabled``, or
    ///   ``DockError/invalidCommand(_:)`` for non-finite velocities.
    public func setAngularVelocity(yaw: Double, pitch: Double) throws(DockError) {
        try requireManualControl()
        try motors.setVelocity(yaw: yaw, pitch: pitch)
        motion = .velocity
    }

    /// Turns to an orientation (radians, clamped to the limits); at most
    /// `requestsPerSecond` orientation and animation requests per second.
    ///
    /// - Throws: ``DockError/rateLimited(request:maximumPerSecond:)`` when requested too often,
    ///   or the errors of ``setAngularVelocity(yaw:pitch:)``.
    public func setOrientation(yaw: Double, pitch: Double) throws(DockError) {
        try requireManualControl()
        guard yaw.isFinite, pitch.isFinite else {
            throw .invalidCommand("orientation: expected finite angles, got \(yaw), \(pitch)")
        }
        try limitRequest("orientation")
        motion = .orientation(
            yaw: motors.limits.yaw.clamp(yaw), pitch: motors.limits.pitch.clamp(pitch))
    }

    /// Plays an animation from the current pose; the stand returns to that pose afterwards.
    /// Shares the orientation requests' rate limit.
    ///
    /// - Throws: ``DockError/notDocked`` or ``DockError/rateLimited(request:maximumPerSecond:)``.
    public func animate(_ animation: StandAnimation) throws(DockError) {
        guard isDocked else { throw .notDocked }
        try limitRequest("animation")
        let state = motors.state
        motion = .animation(
            animation, startYaw: state.yaw, startPitch: state.pitch, startTime: state.timestamp)
    }

    /// Feeds custom observations (normalized, lower-left origin) for system tracking; at most
    /// `observationsPerSecond` calls per second.
    ///
    /// Observations with an identifier keep it as their track id; those without are numbered
    /// by their order. The primary subject is kept across calls.
    /// - Throws: ``DockError/notDocked`` or ``DockError/rateLimited(request:maximumPerSecond:)``.
    public func track(_ observations: [Observation]) throws(DockError) {
        guard isDocked else { throw .notDocked }
        guard observationLimiter.allow(at: motors.state.timestamp) else {
            throw .rateLimited(
                request: "observations", maximumPerSecond: observationLimiter.maximumPerSecond)
        }
        let tracks = observations.enumerated().map { index, observation in
            TrackedObject(
                id: TrackID(observation.identifier ?? (index + 1)), box: observation.rect.topLeft,
                velocityX: 0, velocityY: 0, kind: observation.kind,
                confidence: observation.confidence, age: 30, isPredicted: false)
        }
        lastFraming = framer.frame(selector.select(from: tracks))
        lastObservationTime = motors.state.timestamp
    }

    /// Advances the simulation by `seconds`, in control steps of at most 10 ms.
    public func advance(by seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var remaining = seconds
        while remaining > 1e-12 {
            let dt = min(remaining, 0.01)
            remaining -= dt
            control()
            motors.advance(by: dt)
        }
    }

    /// Steps the simulation every `tick` of `clock` (by default real time) until the task is
    /// cancelled, then stops the motors and returns.
    public func run(tick: Duration = .milliseconds(10), clock: any RunClock)
        async throws
    {
        var last = clock.now
        while !Task.isCancelled {
            do {
                try await clock.sleep(until: last.advanced(by: tick))
            } catch {
                break
            }
            let now = clock.now
            advance(by: now.duration(since: last).seconds)
            last = now
        }
        motors.stop()
    }

    /// Commands the motors; one they refuse stops them instead, and is counted.
    private func drive(yaw: Double, pitch: Double) {
        do {
            try motors.setVelocity(yaw: yaw, pitch: pitch)
        } catch {
            refusedCommands.record(error)
            motors.stop()
        }
    }

    /// Chooses the motor command for this control step.
    private func control() {
        guard isDocked else {
            motors.stop()
            return
        }
        let state = motors.state
        let gain = 6.0
        switch motion {
        case .velocity:
            if isSystemTrackingEnabled {
                if let time = lastObservationTime, state.timestamp - time < 0.5 {
                    let command = controller.command(for: lastFraming, pose: motors.pose)
                    drive(yaw: command.yaw, pitch: command.pitch)
                } else {
                    motors.stop()
                }
            }
        case .orientation(let yaw, let pitch):
            drive(
                yaw: gain * angleDifference(yaw, state.yaw), pitch: gain * (pitch - state.pitch))
            if isSettled(yawError: angleDifference(yaw, state.yaw), pitchError: pitch - state.pitch)
            {
                motion = .velocity
                motors.stop()
            }
        case .animation(let animation, let startYaw, let startPitch, let startTime):
            let elapsed = state.timestamp - startTime
            let trajectory = animation.trajectory
            if elapsed >= trajectory.duration {
                motion = .returning(animation, yaw: startYaw, pitch: startPitch)
                return
            }
            let offset = trajectory.offset(at: elapsed)
            let feedForward = trajectory.velocity(at: elapsed)
            let targetYaw = startYaw + offset.yaw
            let targetPitch = motors.limits.pitch.clamp(startPitch + offset.pitch)
            drive(
                yaw: feedForward.yaw + gain * angleDifference(targetYaw, state.yaw),
                pitch: feedForward.pitch + gain * (targetPitch - state.pitch))
        case .returning(let animation, let yaw, let pitch):
            let yawError = angleDifference(yaw, state.yaw)
            let pitchError = pitch - state.pitch
            drive(yaw: gain * yawError, pitch: gain * pitchError)
            if isSettled(yawError: yawError, pitchError: pitchError) {
                motion = .velocity
                motors.stop()
                emit(.animationFinished(animation))
            }
        }
    }

    /// Whether the motors are at a target and (almost) still: stopping while moving would
    /// overshoot by v² / 2a.
    private func isSettled(yawError: Double, pitchError: Double) -> Bool {
        let state = motors.state
        return abs(yawError) < 1e-3 && abs(pitchError) < 1e-3 && abs(state.yawVelocity) < 0.02
            && abs(state.pitchVelocity) < 0.02
    }

    private func requireManualControl() throws(DockError) {
        guard isDocked else { throw .notDocked }
        guard !isSystemTrackingEnabled else { throw .systemTrackingEnabled }
    }

    private func limitRequest(_ name: String) throws(DockError) {
        guard requestLimiter.allow(at: motors.state.timestamp) else {
            throw .rateLimited(request: name, maximumPerSecond: requestLimiter.maximumPerSecond)
        }
    }

    /// `a − b` wrapped into -π...π, for continuous yaw.
    private func angleDifference(_ a: Double, _ b: Double) -> Double {
        var difference = (a - b).truncatingRemainder(dividingBy: 2 * .pi)
        if difference > .pi { difference -= 2 * .pi }
        if difference < -.pi { difference += 2 * .pi }
        return difference
    }

    deinit {
        broadcast.close()
    }
}
