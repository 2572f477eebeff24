import Files

/// What `headroom serve` runs: HTTP servers answering scrapes of the Headroom metrics and
/// `/status`, and (with a textfile writer) the same metrics written to disk.
///
/// The exporter pulls the pressure status rather than being handed every one: its `status`
/// is asked for the current status whenever something reads it — a scrape, a `/status`
/// request, a textfile write — and brings the metrics up to date then.
public final class MetricsExporter: Sendable {
    /// The metrics published and served.
    public let metrics: HeadroomMetrics
    /// The HTTP servers, one per listener (none to only write the textfile).
    public let servers: [HTTPServer]
    /// The textfile writer, when writing for node_exporter's textfile collector.
    public let textfile: TextfileWriter?
    /// The metrics routes, answering `/status` with the current status.
    public let endpoint: MetricsEndpoint
    private let status: @Sendable () -> PressureStatus?

    /// Creates an exporter serving on every listener of `servers`, each answering with the
    /// handler `routes` makes of the metrics endpoint (the endpoint itself by default; the
    /// host service wraps it in its API); nothing listens or is written until ``start()`` and
    /// ``writeTextfile()``.
    ///
    /// - Parameters:
    ///   - status: the current pressure status, nil before the first reading; it publishes
    ///     the status into `metrics` when it makes a new one (see the HostServer module's
    ///     `ExportedPressure`).
    ///   - textfile: where to write `headroom.prom` at each ``writeTextfile()``; nil not to.
    public init(
        metrics: HeadroomMetrics, servers: [HTTPServerConfiguration], textfile: TextfileWriter?,
        status: @escaping @Sendable () -> PressureStatus?,
        routes: (MetricsEndpoint) -> any HTTPRequestHandler = { $0 }
    ) {
        self.metrics = metrics
        self.textfile = textfile
        self.status = status
        let endpoint = MetricsEndpoint(registry: metrics.registry, status: status)
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

    /// Writes the metrics, brought up to the current status, to the textfile; nothing without
    /// a textfile writer.
    ///
    /// - Throws: `ConfigurationError` when the textfile cannot be written.
    public func writeTextfile() throws(ConfigurationError) {
        guard let textfile else { return }
        _ = status()  // brings the metrics up to the current status
        try textfile.write(metrics.registry)
    }
}
