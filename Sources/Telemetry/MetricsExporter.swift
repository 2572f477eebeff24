import Locking

/// What `headroom serve` runs: every pressure status it is given is published into the
/// Headroom metrics, kept for `/status`, and (with a textfile writer) written to disk, while
/// the HTTP server answers scrapes.
public final class MetricsExporter: Sendable {
    /// The metrics published and served.
    public let metrics: HeadroomMetrics
    /// The HTTP server, when serving over HTTP.
    public let server: HTTPServer?
    /// The textfile writer, when writing for node_exporter's textfile collector.
    public let textfile: TextfileWriter?
    private let latestJSON: LatestStatus

    /// Creates an exporter; nothing listens or is written until ``run(_:)``.
    ///
    /// - Parameters:
    ///   - server: where and how to serve HTTP; nil to only write the textfile.
    ///   - textfile: where to write `headroom.prom` after every status; nil not to.
    public init(
        metrics: HeadroomMetrics, server: HTTPServerConfiguration?, textfile: TextfileWriter?
    ) {
        let latest = LatestStatus()
        self.metrics = metrics
        self.latestJSON = latest
        self.textfile = textfile
        self.server = server.map { configuration in
            HTTPServer(
                configuration: configuration,
                endpoint: MetricsEndpoint(registry: metrics.registry, status: { latest.json }))
        }
    }

    /// Starts the server, then publishes each status of `statuses` until the sequence ends or
    /// the task is cancelled; stops the server before returning.
    ///
    /// - Throws: ``HTTPServerError`` when the server cannot start; `ConfigurationError`
    ///   when the textfile cannot be written; whatever `statuses` throws.
    public func run<Statuses: AsyncSequence>(_ statuses: Statuses) async throws
    where Statuses.Element == PressureStatus {
        try server?.start()
        defer { server?.stop() }
        for try await status in statuses {
            if Task.isCancelled { break }
            metrics.publish(status)
            latestJSON.json = status.json
            try textfile?.write(metrics.registry)
        }
    }
}

/// The latest status JSON, written by the exporter and read by server threads.
private final class LatestStatus: Sendable {
    private let value = LockedState<String?>(nil)

    var json: String? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
