import Capture
import Governor
import Locking
import Pressure
import Telemetry
import Units

/// The host's pressure-and-governor service: the latest pressure reading, the governor every
/// registered pipeline shares, and the event log readers follow.
///
/// It is the one door into the governor: the routes, Frigate's governance and `headroom run`'s
/// own pipeline all register, ask for advice, report work and lateness, and leave here
/// (``register(_:leased:)``, ``advice(for:)``, ``report(_:for:)``,
/// ``reportLateness(_:for:)``, ``leave(_:)``). Each stamps the instant on the service's clock
/// and publishes what changed once — the metrics, the `advice` events, the followers' signal —
/// so that no caller has to remember to.
///
/// It is fed by the pressure observer (``consume(_:)``, on the sampling thread: quick, never
/// blocking): each reading is kept for `GET /v1/pressure`, fed to the governor (which may
/// change clients' advice, each change an `advice` event), and a change of level is a
/// `pressure` event, and expired leases are let go. ``sendKeepAlives()``, a service of its own,
/// gives readers a keep-alive comment every 15 s whatever the readings do. Every time is the injected clock's, so a test (or a
/// replayed trace, or a run on virtual time) drives the whole service. ``close()`` ends every event stream.
public final class HostService: Sendable {
    /// The governor of every registered pipeline; reached through the service's door only.
    private let governor: HostGovernor
    /// The events readers of `GET /v1/events` follow.
    public let events: EventLog
    /// The clock of leases, dwell times and keep-alives: real time for `serve`, the run's
    /// clock for `run`, a manual clock in tests.
    public let clock: any RunClock
    /// The profiles `POST /v1/estimate` prices sessions on (by name only).
    public let catalog: ProfileCatalog
    /// A signal after every change a follower must act on at once: the level, a client's
    /// advice, a client registered or let go. In-process followers (the MQTT bridge, Frigate's
    /// governance) subscribe with `.bufferingNewest(1)` and read the state when woken; values
    /// that drift with every sample (temperatures, headroom) they read at their own pace, so
    /// that a 10 Hz observer wakes nobody ten times a second.
    public let changes = Broadcast<Void>()
    private let metrics: HeadroomMetrics?
    private let latest = LockedState(Latest())
    /// The clients this process drives itself (registered not leased): only their owner lets
    /// them go, so that nobody removes Frigate from under its governance while it is paused.
    private let held = LockedState(Set<ClientID>())

    private struct Latest {
        var reading: PressureReading?
        /// The governor's revision they were published at.
        var publishedRevision = -1
    }

    /// The time between keep-alive comments on the event streams.
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
        let changes = changes
        governor = HostGovernor(
            configuration: configuration,
            onChange: { change in
                events.append(name: "advice", data: ServiceJSON.line(change))
                changes.yield(())
            })
    }

    /// The latest reading; nil before the first.
    public var latestReading: PressureReading? { latest.withLock { $0.reading } }

    /// Ends every event stream and the followers' change signal: the service is stopping.
    public func close() {
        events.close()
        changes.close()
    }

    /// Sends every reader a keep-alive comment every ``heartbeatInterval`` of the service's
    /// clock until cancelled: proxies keep the streams open, and a reader whose client has
    /// gone is found (its write fails) within the interval. Run it as a service beside the
    /// server.
    ///
    /// - Throws: `CancellationError` when cancelled.
    public func sendKeepAlives() async throws {
        var next = clock.now
        while true {
            next = next.advanced(by: Self.heartbeatInterval)
            try await clock.sleep(until: next)
            events.heartbeat()
        }
    }

    /// Takes one reading: kept, given to the governor, a `pressure` event when the level
    /// changed (and for the first reading).
    public func consume(_ reading: PressureReading) {
        let now = clock.now
        let previous = latest.withLock { latest in
            defer { latest.reading = reading }
            return latest.reading
        }
        governor.update(level: reading.level, sustainableShare: reading.sustainableShare, at: now)
        if previous?.level != reading.level {
            events.append(
                name: "pressure",
                data: ServiceJSON.line(PressureDocument(reading: reading, from: previous?.level)))
        }
        publishMetrics()
        if previous?.level != reading.level { changes.yield(()) }
    }

    /// Lets go of the clients whose lease has ended.
    public func expireLeases() {
        if !governor.expireLeases(at: clock.now).isEmpty { clientsChanged() }
    }

    /// Registers a pipeline with the governor: leased (let go after ``HostGovernorConfiguration/lease``
    /// without a request) unless `leased` is false (a pipeline this process drives itself).
    ///
    /// - Throws: ``HostGovernorError/clientLimitReached(_:)`` when the host is full.
    public func register(_ registration: ClientRegistration, leased: Bool = true)
        throws(HostGovernorError) -> (id: ClientID, advice: ClientAdvice)
    {
        let registered = try governor.register(registration, at: clock.now, leased: leased)
        if !leased { held.withLock { _ = $0.insert(registered.id) } }
        clientsChanged()
        return registered
    }

    /// The advice for client `id` now (renewing its lease); nil for an unknown client.
    public func advice(for id: ClientID) -> ClientAdvice? {
        defer { publishMetrics() }
        return governor.advice(for: id, at: clock.now)
    }

    /// Takes a client's report of its work (renewing its lease); its advice then, nil for an
    /// unknown client.
    public func report(_ work: WorkReport, for id: ClientID) -> ClientAdvice? {
        defer { publishMetrics() }
        return governor.report(work, for: id, at: clock.now)
    }

    /// Takes the share of client `id`'s frames that missed their deadline lately (a client in
    /// this process that counts its own lateness, as `headroom run`'s pipeline does).
    public func reportLateness(_ lateShare: Share, for id: ClientID) {
        governor.reportLateness(lateShare, for: id, at: clock.now)
        publishMetrics()
    }

    /// The registered clients with their shares and advice.
    public var clients: [HostGovernor.ClientSummary] { governor.clients }

    /// The governor's configuration (its policy, the lease).
    public var configuration: HostGovernorConfiguration { governor.configuration }

    /// Lets a client go at once, on its owner's word; whether it was registered.
    @discardableResult
    public func leave(_ id: ClientID) -> Bool {
        held.withLock { _ = $0.remove(id) }
        guard governor.remove(id, at: clock.now) else { return false }
        clientsChanged()
        return true
    }

    /// What became of a request to let a client go.
    public enum Release: Equatable, Sendable {
        /// The client was let go.
        case released
        /// No such client: never registered, removed, or its lease ended.
        case unknown
        /// The client is one this process drives itself (registered not leased); it stays.
        case held(name: String)
    }

    /// Lets a client go on a caller's request (`DELETE /v1/clients/{id}`). A client this
    /// process drives itself — Frigate's governance, `run --serve`'s own pipeline — is held:
    /// it leaves when its owner stops, after handing back whatever it paused.
    public func release(_ id: ClientID) -> Release {
        if held.withLock({ $0.contains(id) }) {
            let name = governor.clients.first { $0.id == id }?.registration.name ?? ""
            return .held(name: name)
        }
        return leave(id) ? .released : .unknown
    }

    /// A client was registered or let go: the metrics and the followers hear of it.
    private func clientsChanged() {
        publishMetrics()
        changes.yield(())
    }

    /// Publishes the registered clients and their advised frame rates, when they changed.
    private func publishMetrics() {
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
