import Locking

/// What `headroom serve` runs: every pressure status it is given is published into the
/// Headroom metrics, kept for `/status`, and (with a textfile writer) written to disk, while
/// the HTTP server answers scrapes.
public final class MetricsExporter: Sendable {
    /// The metrics published and served.
    public let metrics: HeadroomMetrics
    /// The HTTP servers, one per listener (none to only write the textfile).
    public let servers: [HTTPServer]
    /// The textfile writer, when writing for node_exporter's textfile collector.
    public let textfile: TextfileWriter?
    /// The metrics routes, answering `/status` with the latest status published.
    public let endpoint: MetricsEndpoint
    private let latestJSON: LatestStatus

    /// Creates an exporter; nothing listens or is written until ``run(_:)``.
    ///
    /// - Parameters:
    ///   - server: where and how to serve HTTP; nil to only write the textfile.
    ///   - textfile: where to write `headroom.prom` after every status; nil not to.
    public convenience init(
        metrics: HeadroomMetrics, server: HTTPServerConfiguration?, textfile: TextfileWriter?
    ) {
        self.init(metrics: metrics, servers: server.map { [$0] } ?? [], textfile: textfile)
    }

    /// Creates an exporter serving on every listener of `servers`, each answering with the
    /// handler `routes` makes of the metrics endpoint (the endpoint itself by default; the
    /// host service wraps it in its API); nothing listens or is written until ``run(_:)``.
    public init(
        metrics: HeadroomMetrics, servers: [HTTPServerConfiguration], textfile: TextfileWriter?,
        routes: (MetricsEndpoint) -> any HTTPRequestHandler = { $0 }
    ) {
        let latest = LatestStatus()
        self.metrics = metrics
        self.latestJSON = latest
        self.textfile = textfile
        let endpoint = MetricsEndpoint(
            registry: metrics.registry, status: { latest.document?.text })
        self.endpoint = endpoint
        let handler = routes(endpoint)
        self.servers = servers.map { HTTPServer(configuration: $0, handler: handler) }
    }

    /// The first server, when serving over HTTP.
    public var server: HTTPServer? { servers.first }

    /// Starts every server; on a failure, those already started are stopped again.
    ///
    /// - Throws: ``HTTPServerError`` of the server that cannot start.
    public func start() throws(HTTPServerError) {
        for (index, server) in servers.enumerated() {
            do throws(HTTPServerError) {
                try server.start()
            } catch {
                for started in servers[..<index] { started.stop() }
                throw error
            }
        }
    }

    /// Stops every server.
    public func stop() {
        for server in servers { server.stop() }
    }

    /// Publishes one status: into the metrics, for `/status`, and into the textfile.
    ///
    /// - Throws: `ConfigurationError` when the textfile cannot be written.
    public func publish(_ status: PressureStatus) throws {
        metrics.publish(status)
        latestJSON.document = status.document
        try textfile?.write(metrics.registry)
    }

    /// Starts the server, then publishes each status of `statuses` until the sequence ends or
    /// the task is cancelled; stops the server before returning.
    ///
    /// - Throws: ``HTTPServerError`` when the server cannot start; `ConfigurationError`
    ///   when the textfile cannot be written; whatever `statuses` throws.
    public func run<Statuses: AsyncSequence>(_ statuses: Statuses) async throws
    where Statuses.Element == PressureStatus {
        try start()
        defer { stop() }
        for try await status in statuses {
            if Task.isCancelled { break }
            try publish(status)
        }
    }
}

/// The latest status document, written by the exporter and read by server threads.
private final class LatestStatus: Sendable {
    private let value = LockedState<DeferredText?>(nil)

    var document: DeferredText? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
