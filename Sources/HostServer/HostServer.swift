import Files
import HostService
import Lifecycle
import Locking
import Pressure
import Telemetry

/// The host service served: the metrics exporter's HTTP servers (TCP, and a Unix socket when
/// asked) answering API v1 and `/metrics`, `/healthz`, `/status`, the textfile for
/// node_exporter, the readings that feed them and the keep-alives of the event streams — what
/// `headroom serve` is, and what `headroom run --serve` adds to a run.
///
/// Its life has the phases of Hummingbird's server: ``bind()`` first (a taken port or an
/// unwritable textfile directory fails there, before anything is announced), then the caller
/// announces where it serves, then ``run(alongside:stopping:)`` runs the services as one group
/// and, once the group has ended, a graceful phase: `stopping` (systemd's `STOPPING=1`) and the
/// event streams' end while the servers still answer, and only then the servers stop. A run
/// takes its ``services(alongside:)`` into its own group instead.
public final class HostServer: Sendable {
    /// The service the routes answer for.
    public let service: HostService
    /// The readings as the exporter serves them.
    public let exported: ExportedPressure
    private let exporter: MetricsExporter
    private let observer: PressureObserver?
    private let report: @Sendable (String) -> Void
    /// The last problem with the textfile, said once until it changes.
    private let textfileProblem = LockedState<String?>(nil)

    /// A server for `service` on `listeners` (the first is TCP; one with a socket path serves
    /// the same on a Unix socket), writing `textfile` after every reading when given; POST and
    /// DELETE beyond loopback need `token`. `observer`, when given, is sampled here and its
    /// readings go to the service, the export and the textfile (a run feeds its own);
    /// `report` hears what a user should know while it serves (a textfile that cannot be
    /// written, once per new problem).
    public init(
        service: HostService, metrics: HeadroomMetrics, exported: ExportedPressure,
        listeners: [HTTPServerConfiguration], textfile: TextfileWriter? = nil,
        token: BearerToken? = nil, observer: PressureObserver? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.service = service
        self.exported = exported
        self.observer = observer
        self.report = report
        exporter = MetricsExporter(
            metrics: metrics, servers: listeners, textfile: textfile, status: exported.current,
            routes: { ServiceRoutes(service: service, metrics: $0, token: token) })
    }

    /// Writes the textfile and binds every listener; with an observer, takes its first
    /// reading, so that once the caller says where it serves, `/v1/pressure` and `/status`
    /// answer. Returns the TCP port bound (the one asked for, or the free one port 0 found).
    ///
    /// - Throws: ``Files/ConfigurationError`` when the textfile cannot be written,
    ///   ``Telemetry/HTTPServerError`` when a listener cannot bind (a taken port, a path that
    ///   cannot be a socket).
    public func bind() throws -> UInt16 {
        try exporter.writeTextfile()
        try exporter.start()
        if let first = observer?.sampleOnce() { take(first) }
        return exporter.server?.port ?? 0
    }

    /// The server's services, to run in a group with `alongside`: the observer (when there is
    /// one; a replayed trace's end ends the group), the event streams' keep-alives and, for a
    /// group that is not this server's own, the servers held until the group ends.
    public func services(alongside extra: [Service] = [], holdingServers: Bool = true)
        -> [Service]
    {
        var services: [Service] = []
        if let observer {
            // Readings are taken on the sampling thread, with no task woken per sample; their
            // status is made when something reads it (a scrape, /status, the textfile).
            services.append(
                Service("observer", ending: .endsGroup, isOnClock: false) {
                    await observer.run(onReading: { [self] in take($0) })
                })
        }
        let service = service
        services.append(
            Service("keep-alive", ending: .runsUntilCancelled) {
                try await service.sendKeepAlives()
            })
        if holdingServers {
            services.append(Service.holding("http") { [self] in stop() })
        }
        return services + extra
    }

    /// Runs the server's services and `alongside` as one group until it is cancelled (SIGINT,
    /// SIGTERM) or ends (a replayed trace's end, a failure); then calls `stopping` and ends the
    /// event streams while the servers still answer, and stops the servers last.
    ///
    /// - Throws: The first error a service throws (other than cancellation).
    public func run(alongside extra: [Service] = [], stopping: @Sendable () -> Void = {})
        async throws
    {
        defer {
            stopping()
            stop()
        }
        _ = try await ServiceGroup(
            services(alongside: extra, holdingServers: false), on: service.clock
        ).run()
    }

    /// Ends the event streams, then stops the servers (again, nothing).
    public func stop() {
        service.close()
        exporter.stop()
    }

    /// One reading to the service, the export and the textfile.
    private func take(_ reading: PressureReading) {
        service.consume(reading)
        exported.offer(reading)
        guard exporter.textfile != nil else { return }
        let problem: String?
        do {
            try exporter.writeTextfile()
            problem = nil
        } catch {
            problem = "\(error)"
        }
        let isNew = textfileProblem.withLock { last in
            defer { last = problem }
            return problem != nil && problem != last
        }
        if isNew, let problem { report(problem) }
    }
}
