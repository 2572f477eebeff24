import Capture
import Governor
import Locking
import Pressure
import Telemetry
import Units

/// The host's pressure-and-governor service: the latest pressure reading, the governor every
/// registered pipeline shares, and the event log readers follow.
///
/// It is fed by the pressure observer (``consume(_:)``, on the sampling thread: quick, never
/// blocking): each reading is kept for `GET /v1/pressure`, fed to the governor (which may
/// change clients' advice, each change an `advice` event), and a change of level is a
/// `pressure` event; readers get a keep-alive comment at the first reading 15 s after the last
/// one, and expired leases are let go. Every time is the injected clock's, so a test (or a
/// replayed trace, or a run on virtual time) drives the whole service. ``close()`` ends every event stream.
public final class HostService: Sendable {
    /// The governor of every registered pipeline.
    public let governor: HostGovernor
    /// The events readers of `GET /v1/events` follow.
    public let events: EventLog
    /// The clock of leases, dwell times and keep-alives: real time for `serve`, the run's
    /// clock for `run`, a manual clock in tests.
    public let clock: any RunClock
    /// The profiles `POST /v1/estimate` prices sessions on (by name only).
    public let catalog: ProfileCatalog
    private let metrics: HeadroomMetrics?
    private let latest = LockedState(Latest())

    private struct Latest {
        var reading: PressureReading?
        var lastHeartbeat: MonotonicInstant?
        /// The governor's revision they were published at.
        var publishedRevision = -1
    }

    /// The least time between keep-alive comments on the event streams: one goes with the
    /// first reading this long after the last.
    public static let heartbeatInterval = Duration.seconds(15)

    /// A service with no clients and no reading yet.
    ///
    /// - Parameters:
    ///   - metrics: where to publish `headroom_service_clients` and
    ///     `headroom_advice_frame_rate_hertz`; nil not to.
    public init(
        configuration: HostGovernorConfiguration, clock: any RunClock,
        catalog: ProfileCatalog, metrics: HeadroomMetrics? = nil, events: EventLog = EventLog()
    ) {
        self.events = events
        self.clock = clock
        self.catalog = catalog
        self.metrics = metrics
        governor = HostGovernor(
            configuration: configuration,
            onChange: { change in events.append(name: "advice", data: ServiceJSON.line(change)) })
    }

    /// The latest reading; nil before the first.
    public var latestReading: PressureReading? { latest.withLock { $0.reading } }

    /// Ends every event stream: the service is stopping.
    public func close() {
        events.close()
    }

    /// Takes one reading: kept, given to the governor, a `pressure` event when the level
    /// changed (and for the first reading), a keep-alive when one is due.
    public func consume(_ reading: PressureReading) {
        let now = clock.now
        let (previous, heartbeatDue) = latest.withLock { latest in
            let previous = latest.reading
            latest.reading = reading
            let due = now.isAtLeast(Self.heartbeatInterval, after: latest.lastHeartbeat)
            if due { latest.lastHeartbeat = now }
            return (previous, due)
        }
        governor.update(level: reading.level, sustainableShare: reading.sustainableShare, at: now)
        if previous?.level != reading.level {
            events.append(
                name: "pressure",
                data: ServiceJSON.line(PressureDocument(reading: reading, from: previous?.level)))
        }
        if heartbeatDue && previous != nil { events.heartbeat() }
        publishMetrics()
    }

    /// Lets go of the clients whose lease has ended.
    public func expireLeases() {
        if !governor.expireLeases(at: clock.now).isEmpty { publishMetrics() }
    }

    /// Publishes the registered clients and their advised frame rates, when they changed.
    func publishMetrics() {
        // The revision first: binding the metrics copies every handle they hold.
        guard self.metrics != nil else { return }
        let revision = governor.revision
        let isCurrent = latest.withLock { latest in
            defer { latest.publishedRevision = revision }
            return latest.publishedRevision == revision
        }
        guard !isCurrent, let metrics else { return }
        metrics.publishServiceClients(
            governor.clients.map { client in
                (
                    client.id.rawValue, client.registration.name,
                    client.advice.frameRate.framesPerSecond
                )
            })
    }
}
