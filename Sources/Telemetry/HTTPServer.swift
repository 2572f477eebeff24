import CMicroHTTPD
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP server behind `headroom serve`: answers a ``HTTPRequestHandler`` (the metrics
/// endpoint, the host service's API) on libmicrohttpd's own threads, within the bounds of its
/// ``HTTPServerConfiguration``: request bodies up to its limit, and streamed responses
/// (Server-Sent Events) whose connections are suspended while their source has nothing to
/// send, so a waiting reader costs no thread and no polling.
///
/// It owns its libmicrohttpd daemon; ``run()`` serves until the task is cancelled, or use
/// ``start()`` and ``stop()`` directly.
public final class HTTPServer: Sendable {
    /// The address and bounds the server was created with.
    public let configuration: HTTPServerConfiguration
    private let handler: any HTTPRequestHandler
    private let state = LockedState<Serving?>(nil)

    /// A running daemon and the dispatcher its callbacks use, which lives as long as it does.
    private struct Serving {
        let daemon: OpaquePointer
        let port: UInt16
        let dispatcher: Dispatcher
        /// The Unix domain socket the server bound, if any.
        let unixSocket: UnixListenSocket?
    }

    /// Creates a server for the metrics `endpoint`; nothing listens until ``start()`` or
    /// ``run()``.
    public convenience init(configuration: HTTPServerConfiguration, endpoint: MetricsEndpoint) {
        self.init(configuration: configuration, handler: endpoint)
    }

    /// Creates a server answering with `handler`; nothing listens until ``start()`` or
    /// ``run()``.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPRequestHandler) {
        self.configuration = configuration
        self.handler = handler
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
    /// - Throws: ``HTTPServerError`` when the configuration is out of range or the address
    ///   cannot be bound (for example, the port is in use).
    public func start() throws(HTTPServerError) {
        try configuration.validate()
        let address = try configuration.listen.socketAddress()
        // libmicrohttpd's own limit is a little above ours: a connection over our limit must
        // still be accepted, to close an idle one in its place, and each thread keeps a free
        // slot while the connections it closed are being cleaned up. Reaching libmicrohttpd's
        // limit would stop accepting, and new connections would wait in the backlog.
        let acceptLimit = configuration.connectionLimit + configuration.threads
        Self.raiseOpenFileLimit(to: acceptLimit + 64)
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.listen.isIPv6 && configuration.socketPath == nil {
            flags |= MHD_USE_IPv6.rawValue
        }
        let configuration = configuration
        let handler = handler
        let result: Result<Void, HTTPServerError> = state.withLock { state in
            guard state == nil else { return .success(()) }
            var unixSocket: UnixListenSocket?
            if let path = configuration.socketPath {
                do throws(HTTPServerError) {
                    unixSocket = try UnixListenSocket(path, backlog: Self.listenBacklog)
                } catch {
                    return .failure(error)
                }
            }
            let listenSocket = unixSocket?.descriptor ?? -1
            let dispatcher = Dispatcher(
                handler: handler, configuration: configuration,
                ledger: ConnectionLedger(
                    totalLimit: configuration.connectionLimit,
                    perClientLimit: configuration.perClientConnectionLimit))
            let context = Unmanaged.passUnretained(dispatcher).toOpaque()
            let daemon = address.withUnsafeBytes { bytes in
                headroom_mhd_start(
                    flags, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), listenSocket,
                    UInt32(acceptLimit), configuration.requestMemoryLimit,
                    UInt32(configuration.idleTimeoutSeconds), UInt32(configuration.threads),
                    Self.listenBacklog, answerRequest,
                    noteConnection, noteRequestEnded, context)
            }
            guard let daemon else {
                let reason =
                    switch errno {
                    case 0: "libmicrohttpd refused to start"
                    case EADDRINUSE:
                        "the address is taken (another headroom serve, or another program, may"
                            + " listen there: stop it, or choose another port)"
                    default: Self.lastError()
                    }
                if let unixSocket {
                    close(unixSocket.descriptor)
                    unixSocket.remove()
                }
                return .failure(
                    .cannotStart(address: configuration.listenDescription, reason: reason))
            }
            state = Serving(
                daemon: daemon, port: headroom_mhd_bound_port(daemon), dispatcher: dispatcher,
                unixSocket: unixSocket)
            return .success(())
        }
        try result.get()
    }

    /// Ends every streamed response, stops listening, closes every connection, waits for
    /// libmicrohttpd's threads to end and removes the Unix socket it created.
    public func stop() {
        // Under the lock: request threads never take it, so waiting for them cannot deadlock.
        state.withLock { state in
            guard let serving = state else { return }
            // libmicrohttpd refuses to stop with connections suspended: every stream is ended
            // (and its connection resumed) first.
            serving.dispatcher.endStreams()
            MHD_stop_daemon(serving.daemon)
            serving.unixSocket?.remove()
            state = nil
        }
    }

    /// Serves until the surrounding task is cancelled, then stops and returns.
    ///
    /// - Throws: ``HTTPServerError`` when the server cannot start.
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
private final class Dispatcher: Sendable {
    /// The dispatcher behind a callback's context pointer (the server holds the reference).
    static func from(_ context: UnsafeMutableRawPointer) -> Dispatcher {
        Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    }

    let handler: any HTTPRequestHandler
    let configuration: HTTPServerConfiguration
    private let connections: LockedState<ConnectionLedger<ServedConnection, ClientAddress>>
    private let streams = LockedState<[ObjectIdentifier: StreamedBody]>([:])

    init(
        handler: any HTTPRequestHandler, configuration: HTTPServerConfiguration,
        ledger: ConnectionLedger<ServedConnection, ClientAddress>
    ) {
        self.handler = handler
        self.configuration = configuration
        self.connections = LockedState(ledger)
    }

    /// Records a new connection and closes those the ledger gives up (an idle one, else a
    /// stream, whose response is ended first), the new one included when nothing else is idle
    /// or streaming.
    func opened(_ connection: ServedConnection, from client: ClientAddress) {
        connections.withLock { ledger in
            // Under the lock: libmicrohttpd closes a socket only after telling `closed`, which
            // waits for this lock, so every socket the ledger returns is still the one it
            // names. `shutdown` ends the TCP connection; the thread that polls it then sees
            // the end, closes the socket and frees its slot. A stream waiting for its next
            // event is suspended, and libmicrohttpd does not poll it: ending the stream
            // resumes it.
            for closing in ledger.opened(connection, from: client) where closing.socket >= 0 {
                let ending = streams.withLock { streams in
                    streams.values.filter { $0.handle == closing.handle }
                }
                for body in ending { body.end() }
                shutdown(closing.socket, Int32(SHUT_RDWR))
            }
        }
    }

    /// The connection's response is a stream (see ``ConnectionLedger/streamStarted(_:)``).
    func streamStarted(_ connection: ServedConnection) {
        connections.withLock { $0.streamStarted(connection) }
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

    /// Keeps `body` until its response is freed.
    func track(_ body: StreamedBody) {
        streams.withLock { $0[ObjectIdentifier(body)] = body }
    }

    func untrack(_ body: StreamedBody) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(body)) }
    }

    /// Ends every streamed response, resuming the suspended ones so they can finish.
    func endStreams() {
        for body in streams.withLock({ Array($0.values) }) { body.end() }
    }
}

/// A request's state between libmicrohttpd's calls: the body as it arrives.
private final class PendingRequest {
    var body: [UInt8] = []
    var isTooLarge = false
    var isAnswered = false
}

/// A libmicrohttpd connection handle that may cross threads: libmicrohttpd allows resuming a
/// suspended connection from any thread.
private struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The body of one streamed response: reads its source on the connection's thread and
/// suspends the connection while the source waits, resuming it when the source wakes it.
///
/// The connection stays valid while suspended (libmicrohttpd frees no suspended connection),
/// so resuming only from the suspended phase never touches a freed connection.
private final class StreamedBody: Sendable {
    private enum Phase {
        case running, suspended, ended
    }

    let source: any HTTPStreamSource
    private let connection: ConnectionHandle
    private let phase = LockedState(Phase.running)

    init(source: any HTTPStreamSource, connection: OpaquePointer) {
        self.source = source
        self.connection = ConnectionHandle(pointer: connection)
    }

    /// The connection's handle.
    var handle: OpaquePointer { connection.pointer }

    /// Fills `buffer` from the source: a byte count, 0 after suspending the connection, or
    /// the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        // Under the lock, so a wake-up from another thread cannot resume the connection before
        // it is suspended (undefined in libmicrohttpd); the source wakes outside its own lock.
        phase.withLock { phase in
            guard phase != .ended else { return headroom_mhd_end_of_stream }
            switch source.read(into: buffer, wake: { [self] in wake() }) {
            case .bytes(let count):
                return count
            case .end:
                phase = .ended
                return headroom_mhd_end_of_stream
            case .wait:
                phase = .suspended
                MHD_suspend_connection(connection.pointer)
                return 0
            }
        }
    }

    /// The source has more: resumes the connection if it is suspended.
    func wake() {
        phase.withLock { phase in
            guard phase == .suspended else { return }
            phase = .running
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Ends the stream: the next read ends the response.
    func end() {
        phase.withLock { phase in
            let wasSuspended = phase == .suspended
            phase = .ended
            if wasSuspended { MHD_resume_connection(connection.pointer) }
        }
    }

    /// The response is freed: the connection is gone.
    func freed() {
        phase.withLock { $0 = .ended }
        source.close()
    }
}

/// A streamed body and the dispatcher that tracks it: the context of libmicrohttpd's content
/// reader and free callbacks.
private final class StreamContext {
    let body: StreamedBody
    let dispatcher: Dispatcher

    init(body: StreamedBody, dispatcher: Dispatcher) {
        self.body = body
        self.dispatcher = dispatcher
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
    let dispatcher = Dispatcher.from(context)
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        dispatcher.opened(
            ServedConnection(connection),
            from: ClientAddress(headroom_mhd_client_address(connection)))
    case .CONNECTION_NOTIFY_CLOSED:
        dispatcher.closed(ServedConnection(connection))
    }
}

/// libmicrohttpd's completion callback: a request's response is sent, or the request failed;
/// the request's pending state is released.
private func noteRequestEnded(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_RequestTerminationCode
) {
    if let requestContext, let pending = requestContext.pointee {
        Unmanaged<PendingRequest>.fromOpaque(pending).release()
        requestContext.pointee = nil
    }
    guard let context, let connection else { return }
    Dispatcher.from(context).requestEnded(ServedConnection(connection))
}

/// libmicrohttpd's access handler, called once after the headers, once per piece of the body,
/// and once at the end, when the request is answered. A body over the limit is answered 413:
/// at once when its `Content-Length` says so, else once it has been read (and dropped).
private func answerRequest(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
    uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let url, let method, let uploadSize, let requestContext
    else { return .NO }
    let dispatcher = Dispatcher.from(context)
    let limit = dispatcher.configuration.bodyLimit
    guard let existing = requestContext.pointee else {
        dispatcher.requestStarted(ServedConnection(connection))
        let pending = PendingRequest()
        requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
        let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length")
        if let length, let declared = Int(String(cString: length)), declared > limit {
            pending.isAnswered = true
            return send(HTTPResponse.bodyTooLarge(limit: limit), on: connection)
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        if !pending.isAnswered, !pending.isTooLarge, let uploadData {
            if pending.body.count + count > limit {
                pending.isTooLarge = true
                pending.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    guard !pending.isAnswered else { return .YES }
    pending.isAnswered = true
    if pending.isTooLarge {
        return send(HTTPResponse.bodyTooLarge(limit: limit), on: connection)
    }
    var headers: [String: String] = [:]
    for name in HTTPRequest.collectedHeaders {
        if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
            headers[name.lowercased()] = String(cString: value)
        }
    }
    let request = HTTPRequest(
        method: String(cString: method), path: String(cString: url), headers: headers,
        body: pending.body,
        isLocal: dispatcher.configuration.isLocal
            || ClientAddress(headroom_mhd_client_address(connection)).isLoopback)
    pending.body = []
    switch dispatcher.handler.respond(to: request) {
    case .response(let response):
        return send(response, on: connection)
    case .stream(let stream):
        return send(stream, on: connection, dispatcher: dispatcher)
    }
}

/// Queues a whole response.
private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
            .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    addHeaders(contentType: response.contentType, response.headers, to: mhdResponse)
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
}

/// Queues a streamed response, read through its ``StreamedBody``.
private func send(
    _ stream: HTTPStreamResponse, on connection: OpaquePointer, dispatcher: Dispatcher
) -> MHD_Result {
    let body = StreamedBody(source: stream.source, connection: connection)
    dispatcher.track(body)
    let context = Unmanaged.passRetained(StreamContext(body: body, dispatcher: dispatcher))
    guard
        let mhdResponse = MHD_create_response_from_callback(
            headroom_mhd_size_unknown, 4096, readStream, context.toOpaque(), freeStream)
    else {
        context.release()
        dispatcher.untrack(body)
        stream.source.close()
        return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }
    addHeaders(contentType: stream.contentType, stream.headers, to: mhdResponse)
    dispatcher.streamStarted(ServedConnection(connection))
    return MHD_queue_response(connection, UInt32(stream.status), mhdResponse)
}

private func addHeaders(
    contentType: String, _ headers: [String: String], to response: OpaquePointer
) {
    _ = MHD_add_response_header(response, "Content-Type", contentType)
    for (name, value) in headers {
        _ = MHD_add_response_header(response, name, value)
    }
}

/// libmicrohttpd's content reader for streamed responses.
private func readStream(
    context: UnsafeMutableRawPointer?, position: UInt64, buffer: UnsafeMutablePointer<CChar>?,
    capacity: Int
) -> Int {
    guard let context, let buffer else { return headroom_mhd_end_of_stream }
    let stream = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue()
    return stream.body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
}

/// libmicrohttpd's free callback for streamed responses: the response is done with.
private func freeStream(context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    let stream = Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue()
    stream.body.freed()
    stream.dispatcher.untrack(stream.body)
}

extension HTTPResponse {
    /// `413`: the request body is longer than the server takes; the error document of the
    /// host service's API (`error`, `path`, `problem`).
    static func bodyTooLarge(limit: Int) -> HTTPResponse {
        let problem = "request body over \(limit) bytes"
        return HTTPResponse(
            status: 413, contentType: "application/json",
            body: "{\"error\":\"\(problem)\",\"path\":\"\",\"problem\":\"\(problem)\"}\n")
    }
}
