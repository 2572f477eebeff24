import Dispatch
import Pipeline
import Pressure
import Telemetry

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom serve`: the pressure observer plus the metrics exporter, until SIGINT or SIGTERM.
enum ServeCommand {
    /// The server's defaults, which the help text states.
    private static let defaults = HTTPServerConfiguration()

    static let command = Command(
        name: "serve",
        usage: "[--listen ADDR] [--interval S] [--textfile DIR] [--config FILE] [--model]",
        summary: "Export pressure metrics for Prometheus: /metrics, /healthz and /status.",
        details: """
            Samples pressure every --interval seconds (default 5) and serves the readings as
            Prometheus metrics on --listen (default 127.0.0.1:9464, loopback only; use
            0.0.0.0:9464 or [::]:9464 to serve other machines). /metrics speaks Prometheus text
            0.0.4 or OpenMetrics 1.0 by the Accept header; /status is the latest reading as
            `status --json` prints it; /healthz answers ok. With --textfile DIR it also writes
            DIR/headroom.prom atomically after every sample, for node_exporter's textfile
            collector. Prints "serving on HOST:PORT" on stdout once listening (port 0 picks a
            free port); SIGINT or SIGTERM stops it cleanly with exit 0. SIGHUP reloads --config
            (a bad file is reported and the running rules are kept). Idle connections never make
            a scrape wait: a connection beyond --max-connections-per-client (per IP address) or
            --max-connections (in total) closes the oldest idle one, and a connection silent for
            --idle-timeout seconds is closed.
            """,
        options: PressureInput.options + [
            .option("--listen", "ADDR", "HOST:PORT or [IPv6]:PORT to serve on"),
            .number(
                "--interval", "S",
                "seconds between samples (below 1, only within reach of a threshold, once a"
                    + " second otherwise)", in: 0.1...3600, default: 5),
            .path("--textfile", "DIR", "also write DIR/headroom.prom after every sample"),
            .integer(
                "--max-connections", "N", "connections open at once", in: 1...60000,
                default: defaults.connectionLimit),
            .integer(
                "--max-connections-per-client", "N", "connections open at once per IP address",
                in: 1...60000, default: defaults.perClientConnectionLimit),
            .integer(
                "--idle-timeout", "S", "seconds a silent connection stays open", in: 1...3600,
                default: defaults.idleTimeoutSeconds),
        ],
        run: { arguments in
            try arguments.expectNoPositionals()
            let interval = arguments.number("--interval")
            var listen = ListenAddress.defaultLoopback
            if let text = arguments.value("--listen") {
                do throws(HTTPServerError) {
                    listen = try ListenAddress(parsing: text)
                } catch {
                    throw UsageError(description: error.description)
                }
            }
            let connectionLimit = arguments.integer("--max-connections")
            let perClientConnectionLimit = arguments.integer("--max-connections-per-client")
            let idleTimeout = arguments.integer("--idle-timeout")
            let input = try PressureInput(arguments)
            let exporter = MetricsExporter(
                metrics: try HeadroomMetrics(),
                server: HTTPServerConfiguration(
                    listen: listen, connectionLimit: connectionLimit,
                    perClientConnectionLimit: perClientConnectionLimit,
                    idleTimeoutSeconds: idleTimeout),
                textfile: arguments.value("--textfile").map { TextfileWriter(directory: $0) })
            // Write the textfile and bind before sampling, so that an unwritable directory or
            // a taken port fails at once, before anything is printed on stdout.
            try exporter.textfile?.write(exporter.metrics.registry)
            try exporter.server?.start()
            let address =
                "\(listen.isIPv6 ? "[\(listen.host)]" : listen.host):\(exporter.server?.port ?? 0)"
            if !listen.isLoopback {
                Console.error("headroom serve: note: serving beyond loopback on \(address)")
            }
            Console.out("serving on \(address) (/metrics /healthz /status)")
            let observer = PressureObserver(
                source: input.sampler, classifier: input.classifier, interval: interval)
            let statuses = observer.readings().map { PressureStatus($0) }
            let hangup = reloadOnHangup(observer, configuration: arguments.value("--config"))
            defer { hangup.cancel() }
            try await withSignalCancellation {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await observer.run() }
                    group.addTask { try await exporter.run(statuses) }
                    // The first to end (cancellation ends both) ends the other.
                    defer { group.cancelAll() }
                    try await group.next()
                }
            }
            exporter.server?.stop()
            Console.error("headroom serve: stopped")
            return 0
        })

    /// On SIGHUP (which would otherwise end the process), reads `configuration` again and
    /// gives the observer the new rules; a bad file is reported and the running rules kept.
    private static func reloadOnHangup(
        _ observer: PressureObserver, configuration path: String?
    ) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler {
            guard let path else {
                Console.error("headroom serve: SIGHUP: no --config to reload; serving on")
                return
            }
            do {
                let configuration = try PressureConfiguration.load(from: path)
                observer.replaceClassifier(with: PressureClassifier(configuration: configuration))
                Console.error("headroom serve: SIGHUP: reloaded \(path)")
            } catch {
                Console.error("headroom serve: SIGHUP: \(error); keeping the running rules")
            }
        }
        source.resume()
        return source
    }
}
