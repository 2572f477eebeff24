import CLI
import Capture
import Files
import Governor
import HostServer
import HostService
import Lifecycle
import Pressure
import Telemetry
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom serve`: the pressure observer, the metrics exporter and the host service (API v1)
/// that governs any pipeline on the host, until SIGINT or SIGTERM (or the end of `--trace`).
public enum ServeCommand {
    /// The server's defaults, which the help text states.
    private static let defaults = HTTPServerConfiguration()

    /// The command: its name, help, options and body.
    public static let command = Command(
        name: "serve",
        summary:
            "The host service: pressure metrics for Prometheus and API v1 that governs any"
            + " pipeline.",
        details: """
            API v1 (JSON; docs/api.md): GET /v1/pressure; POST /v1/clients registers a pipeline
            with its priority, frame rates and inference ladder, and GET
            /v1/clients/ID/advice, POST /v1/clients/ID/report and DELETE /v1/clients/ID follow
            it (a client that sends nothing for --lease seconds is forgotten); POST
            /v1/estimate prices a session; GET /v1/events streams `pressure` and `advice` as
            Server-Sent Events. The governor shares the host between the clients: the lowest
            priority sheds first. --socket PATH also serves everything on a Unix domain socket
            (mode 0660). Beyond loopback, POST and DELETE need `Authorization: Bearer TOKEN`
            with the token in --token-file (mode 0600). --trace FILE replays pressure in its
            recorded time and stops at its end. Under systemd (Type=notify) it sends READY=1
            once serving and WATCHDOG=1 at half of WatchdogSec.

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

            With --mqtt URL it also publishes the state on MQTT with Home Assistant discovery
            (docs/home-assistant.md): the level, throttling, temperature, headroom and each
            client's advice as one device, retained, on change and every --mqtt-heartbeat
            seconds, `offline` as its last will. A broker that is away or slow never holds up
            sampling or the API: it reconnects with a growing delay and the newest state wins.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            let interval = arguments[\.interval]
            var listen = ListenAddress.defaultLoopback
            if let text = arguments[\.listen] {
                do throws(HTTPServerError) {
                    listen = try ListenAddress(parsing: text)
                } catch {
                    throw UsageError(description: error.description)
                }
            }
            // node_exporter reads one existing directory: a mistyped one is not made.
            if let textfile = arguments[\.textfile] {
                guard FileSystem.isDirectory(textfile.path) else {
                    throw UsageError(
                        description:
                            "--textfile: \(textfile.path) is not a directory; expected the existing"
                            + " directory node_exporter reads (--collector.textfile.directory)")
                }
            }
            let connectionLimit = arguments[\.maxConnections]
            let perClientConnectionLimit = arguments[\.maxConnectionsPerClient]
            let idleTimeout = arguments[\.idleTimeout]
            let input = try PressureInput(arguments, \.pressure)
            let token = try arguments[\.tokenFile].map(BearerToken.load)
            let metrics = try HeadroomMetrics()
            let observer = PressureObserver(
                source: try input.observedSource(trace: arguments[\.trace]),
                classifier: input.classifier, interval: interval, clock: ContinuousRunClock(),
                triggers: input.triggers(trace: arguments[\.trace]))
            let service = HostService(
                configuration: HostGovernorConfiguration(
                    lease: arguments[\.lease],
                    processorCount: ProcessFacts.processorCount),
                clock: ContinuousRunClock(), catalog: ProfileCatalog.forThisUser, metrics: metrics)
            let listener = HTTPServerConfiguration(
                listen: listen, connectionLimit: connectionLimit,
                perClientConnectionLimit: perClientConnectionLimit,
                idleTimeoutSeconds: idleTimeout)
            var listeners = [listener]
            if let socket = arguments[\.socket] {
                var local = listener
                local.socketPath = socket
                listeners.append(local)
            }
            let mqtt = try MQTTPublishing.services(
                arguments, \.mqtt, host: service, metrics: metrics)
            let server = HostServer(
                service: service, metrics: metrics, exported: ExportedPressure(metrics: metrics),
                listeners: listeners,
                textfile: arguments[\.textfile].map { TextfileWriter(directory: $0.path) },
                token: token, observer: observer,
                report: { Console.error("headroom serve: \($0)") })
            // The textfile written and every listener bound before sampling, so that an
            // unwritable directory or a taken port fails at once, before anything is printed
            // on stdout; the first reading is taken before anything is announced.
            let port: UInt16
            do {
                port = try server.bind()
            } catch {
                server.stop()
                // A path that cannot be a socket is bad input; a taken port is not.
                if let error = error as? HTTPServerError, case .unusableSocketPath = error {
                    throw UsageError(description: error.description)
                }
                throw error
            }
            let address = ServiceAccess.address(listen, port: port)
            ServiceAccess.noteReach(
                of: listen, at: address, token: token, command: "headroom serve")
            let socket = arguments[\.socket].map { " and unix:\($0)" } ?? ""
            reloadOnHangup(observer, configuration: arguments[\.pressure.config])
            defer { SignalWatcher.shared.release(SIGHUP) }
            let systemd = SystemdNotifier(environment: ProcessFacts.environment)
            var services = mqtt
            if let interval = systemd.watchdogInterval {
                services.append(
                    Service("watchdog", ending: .runsUntilCancelled, isOnClock: false) {
                        let clock = ContinuousRunClock()
                        while !Task.isCancelled {
                            systemd.watchdog()
                            try await clock.sleep(for: interval)
                        }
                    })
            }
            // One group until a signal, a trace's end or a failure; then systemd hears
            // STOPPING=1 and the event streams end while the servers still answer, and the
            // servers stop last.
            let alongside = services
            try await withSignalCancellation {
                // Announced once every signal is watched: a SIGHUP, SIGINT or SIGTERM sent on
                // seeing this line is acted on, never the default action.
                Console.out("serving on \(address)\(socket) (/metrics /healthz /status /v1)")
                systemd.ready(status: "serving on \(address)\(socket)")
                return try await server.run(
                    alongside: alongside,
                    stopping: {
                        systemd.stopping()
                        Console.error("headroom serve: stopped")
                    })
            }
            return 0
        })

    /// `headroom serve`'s options.
    struct Options: CommandOptions {
        let pressure = PressureInput.Options()
        let listen = Option<String?>.text(
            "--listen", "ADDR", "HOST:PORT or [IPv6]:PORT to serve on")
        let interval = Option<Duration>.seconds(
            "--interval", "S",
            "seconds between samples (below 1, only within reach of a threshold, once a"
                + " second otherwise)", in: 0.1...3600, default: 5)
        let textfile = Option<Destination?>.output(
            "--textfile", "DIR", "also write DIR/headroom.prom after every sample", .directory)
        let socket = Option<String?>.path(
            "--socket", "PATH", "also serve on this Unix domain socket (created 0660)")
        let tokenFile = ServiceAccess.tokenFileOption
        let trace = PressureInput.traceOption
        let lease = Option<Duration>.seconds(
            "--lease", "S", "seconds a client stays registered without a request",
            in: 1...3600, default: 30)
        let maxConnections = Option<Int>.integer(
            "--max-connections", "N", "connections open at once", in: 1...60000,
            default: ServeCommand.defaults.connectionLimit)
        let maxConnectionsPerClient = Option<Int>.integer(
            "--max-connections-per-client", "N", "connections open at once per IP address",
            in: 1...60000, default: ServeCommand.defaults.perClientConnectionLimit)
        let idleTimeout = Option<Int>.integer(
            "--idle-timeout", "S", "seconds a silent connection stays open", in: 1...3600,
            default: ServeCommand.defaults.idleTimeoutSeconds)
        let mqtt = MQTTPublishing.Options()
    }

    /// On SIGHUP (which would otherwise end the process), reads `configuration` again and
    /// gives the observer the new rules; a bad file is reported and the running rules kept.
    private static func reloadOnHangup(
        _ observer: PressureObserver, configuration path: String?
    ) {
        SignalWatcher.shared.watch(SIGHUP) { _ in
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
    }
}
