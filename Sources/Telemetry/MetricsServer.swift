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
    private let handler: RequestHandler
    private let state = LockedState<(daemon: OpaquePointer?, port: UInt16)>((nil, 0))

    /// Creates a server for `endpoint`; nothing listens until ``start()`` or ``run()``.
    public init(configuration: MetricsServerConfiguration, endpoint: MetricsEndpoint) {
        self.configuration = configuration
        self.handler = RequestHandler(endpoint: endpoint)
    }

    deinit {
        stop()
    }

    /// The TCP port being served (the kernel's choice when the configuration asked for 0),
    /// or 0 while stopped.
    public var port: UInt16 {
        state.withLock { $0.port }
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
        Self.raiseOpenFileLimit(to: configuration.connectionLimit + 64)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
        if configuration.listen.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(handler).toOpaque()
        let result: Result<Void, MetricsServerError> = state.withLock { state in
            guard state.daemon == nil else { return .success(()) }
            let daemon = address.withUnsafeBytes { bytes in
                headroom_mhd_start(
                    flags, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                    UInt32(configuration.connectionLimit), configuration.requestMemoryLimit,
                    UInt32(configuration.idleTimeoutSeconds), UInt32(configuration.threads),
                    UInt32(min(configuration.connectionLimit, 1024)), answerRequest, context)
            }
            guard let daemon else {
                let reason = errno == 0 ? "libmicrohttpd refused to start" : Self.lastError()
                return .failure(
                    .cannotStart(address: configuration.listen.description, reason: reason))
            }
            state = (daemon, headroom_mhd_bound_port(daemon))
            return .success(())
        }
        try result.get()
    }

    /// Stops listening, closes every connection and waits for libmicrohttpd's threads to end.
    public func stop() {
        // Under the lock: request threads never take it, so waiting for them cannot deadlock.
        state.withLock { state in
            if let daemon = state.daemon { MHD_stop_daemon(daemon) }
            state = (nil, 0)
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

/// What libmicrohttpd's threads call back into; kept alive by the server that owns the daemon.
private final class RequestHandler: Sendable {
    let endpoint: MetricsEndpoint

    init(endpoint: MetricsEndpoint) {
        self.endpoint = endpoint
    }
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
    let handler = Unmanaged<RequestHandler>.fromOpaque(context).takeUnretainedValue()
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
