import CMicroHTTPD
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP server behind `headroom serve`: answers ``MetricsEndpoint``'s routes on
/// libmicrohttpd's own threads, within the bounds of its ``MetricsServerConfiguration``.
///
/// It owns its libmicrohttpd daemon; ``run()`` serves until the task is cancelled, or use
/// ``start()`` and ``stop()`` directly.
public final class MetricsServer: Sendable {
    /// The address and bounds the server was created with.
    public let configuration: MetricsServerConfiguration
    private let endpoint: MetricsEndpoint
    private let state = LockedState<Serving?>(nil)

    /// A running daemon and the handler its callbacks use, which lives as long as it does.
    private struct Serving {
        let daemon: OpaquePointer
        let port: UInt16
        let handler: RequestHandler
    }

    /// Creates a server for `endpoint`; nothing listens until ``start()`` or ``run()``.
    public init(configuration: MetricsServerConfiguration, endpoint: MetricsEndpoint) {
        self.configuration = configuration
        self.endpoint = endpoint
    }

    deinit {
        stop()
    }

    /// The TCP port being served (the kernel's choice when the configuration asked for 0),
    /// or 0 while stopped.
    public var port: UInt16 {
        state.withLock { $0?.port ?? 0 }
    }

    /// Binds and starts serving on libmicrohttpd's threads; does nothing if already started.
    ///
    /// Raises the process's soft open-files limit (up to the hard limit) so that the
    /// configured connection limit can be reached.
    ///
    /// - Throws: ``MetricsServerError`` when the configuration is out of range or the address
    ///   cannot be bound (for example, the port is in use).
    public func start() throws(MetricsServerError) {
        try configuration.validate()
        let address = try configuration.listen.socketAddress()
        // libmicrohttpd's own limit is a little above ours: a connection over our limit must
        // still be accepted, to close an idle one in its place, and each thread keeps a free
        // slot while the connections it closed are being cleaned up. Reaching libmicrohttpd's
        // limit would stop accepting, and new connections would wait in the backlog.
        let acceptLimit = configuration.connectionLimit + configuration.threads
        Self.raiseOpenFileLimit(to: acceptLimit + 64)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
        if configuration.listen.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let configuration = configuration
        let endpoint = endpoint
        let result: Result<Void, MetricsServerError> = state.withLock { state in
            guard state == nil else { return .success(()) }
            let handler = RequestHandler(
                endpoint: endpoint,
                ledger: ConnectionLedger(
                    totalLimit: configuration.connectionLimit,
                    perClientLimit: configuration.perClientConnectionLimit))
            let context = Unmanaged.passUnretained(handler).toOpaque()
            let daemon = address.withUnsafeBytes { bytes in
                headroom_mhd_start(
                    flags, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                    UInt32(acceptLimit), configuration.requestMemoryLimit,
                    UInt32(configuration.idleTimeoutSeconds), UInt32(configuration.threads),
                    Self.listenBacklog, answerRequest,
                    noteConnection, noteRequestEnded, context)
            }
            guard let daemon else {
                let reason = errno == 0 ? "libmicrohttpd refused to start" : Self.lastError()
                return .failure(
                    .cannotStart(address: configuration.listen.description, reason: reason))
            }
            state = Serving(
                daemon: daemon, port: headroom_mhd_bound_port(daemon), handler: handler)
            return .success(())
        }
        try result.get()
    }

    /// Stops listening, closes every connection and waits for libmicrohttpd's threads to end.
    public func stop() {
        // Under the lock: request threads never take it, so waiting for them cannot deadlock.
        state.withLock { state in
            if let daemon = state?.daemon { MHD_stop_daemon(daemon) }
            state = nil
        }
    }

    /// Serves until the surrounding task is cancelled, then stops and returns.
    ///
    /// - Throws: ``MetricsServerError`` when the server cannot start.
    public func run() async throws {
        try start()
        defer { stop() }
        while !Task.isCancelled {
            // Waiting, not polling: cancellation interrupts the sleep at once.
            try? await Task.sleep(for: .seconds(3600))
        }
    }

    /// Connections the kernel completes before they are accepted. Not tied to the connection
    /// limit: the server never stops accepting, and a deep backlog absorbs a burst of
    /// connections without dropping a scraper's (the kernel caps it at `net.core.somaxconn`).
    private static let listenBacklog: UInt32 = 1024

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }

    private static func raiseOpenFileLimit(to wanted: Int) {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        _ = setrlimit(resource, &limit)
    }
}

/// One of libmicrohttpd's connections: its handle, and the socket it is closed through (set
/// once when the connection is accepted, so the pair is as unique as the handle).
private struct ServedConnection: Hashable {
    let handle: OpaquePointer
    let socket: Int32

    init(_ handle: OpaquePointer) {
        self.handle = handle
        self.socket = headroom_mhd_connection_socket(handle)
    }
}

/// What libmicrohttpd's threads call back into; kept alive by the server while its daemon runs.
private final class RequestHandler: Sendable {
    /// The handler behind a callback's context pointer (the server holds the reference).
    static func from(_ context: UnsafeMutableRawPointer) -> RequestHandler {
        Unmanaged<RequestHandler>.fromOpaque(context).takeUnretainedValue()
    }

    let endpoint: MetricsEndpoint
    private let connections: LockedState<ConnectionLedger<ServedConnection, ClientAddress>>

    init(endpoint: MetricsEndpoint, ledger: ConnectionLedger<ServedConnection, ClientAddress>) {
        self.endpoint = endpoint
        self.connections = LockedState(ledger)
    }

    /// Records a new connection and closes those the ledger gives up, the new one included
    /// when nothing else is idle.
    func opened(_ connection: ServedConnection, from client: ClientAddress) {
        connections.withLock { ledger in
            // Under the lock: libmicrohttpd closes a socket only after telling `closed`, which
            // waits for this lock, so every socket the ledger returns is still the one it
            // names. `shutdown` ends the TCP connection; the thread that polls it then sees
            // the end, closes the socket and frees its slot.
            for closing in ledger.opened(connection, from: client) where closing.socket >= 0 {
                shutdown(closing.socket, Int32(SHUT_RDWR))
            }
        }
    }

    func requestStarted(_ connection: ServedConnection) {
        connections.withLock { $0.requestStarted(connection) }
    }

    func requestEnded(_ connection: ServedConnection) {
        connections.withLock { $0.requestEnded(connection) }
    }

    func closed(_ connection: ServedConnection) {
        connections.withLock { $0.closed(connection) }
    }
}

/// libmicrohttpd's connection callback: every connection opened and closed, on the thread that
/// polls it.
private func noteConnection(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let context, let connection else { return }
    let handler = RequestHandler.from(context)
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        handler.opened(
            ServedConnection(connection),
            from: ClientAddress(headroom_mhd_client_address(connection)))
    case .CONNECTION_NOTIFY_CLOSED:
        handler.closed(ServedConnection(connection))
    }
}

/// libmicrohttpd's completion callback: a request's response is sent, or the request failed.
private func noteRequestEnded(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_RequestTerminationCode
) {
    guard let context, let connection else { return }
    let handler = RequestHandler.from(context)
    handler.requestEnded(ServedConnection(connection))
}

/// libmicrohttpd's access handler: answers on the first call for a request (after its headers),
/// so a request body is never read; a body on GET gets the same answer as without one.
private func answerRequest(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
    uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let url, let method else { return .NO }
    let handler = RequestHandler.from(context)
    handler.requestStarted(ServedConnection(connection))
    let accept = MHD_lookup_connection_value(connection, .HEADER_KIND, "Accept")
    let response = handler.endpoint.response(
        method: String(cString: method), path: String(cString: url),
        accept: accept.map { String(cString: $0) })
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
            .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    _ = MHD_add_response_header(mhdResponse, "Content-Type", response.contentType)
    for (name, value) in response.headers {
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
}
