import CWakeup
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP/1.1 server behind `headroom serve`: answers a ``HTTPRequestHandler`` (the metrics
/// endpoint, the host service's API) on threads of its own, within the bounds of its
/// ``HTTPServerConfiguration``: request heads and bodies up to their limits, keep-alive and
/// pipelined requests, and streamed responses (Server-Sent Events) whose connections wait
/// in epoll while their source has nothing to send, so a waiting reader costs no thread and
/// no polling.
///
/// Each of ``HTTPServerConfiguration/threads`` event loops waits in one `epoll` set on the
/// shared listening socket (held exclusively, so a new connection wakes one loop, a waiting
/// one) and on the connections it accepted. ``run()`` serves until the task is cancelled, or use ``start()``
/// and ``stop()`` directly.
public final class HTTPServer: Sendable {
    /// The address and bounds the server was created with.
    public let configuration: HTTPServerConfiguration
    private let handler: any HTTPRequestHandler
    private let state = LockedState<Serving?>(nil)

    /// A running server: its listening socket and its loops.
    private struct Serving {
        let listener: Int32
        let port: UInt16
        let loops: [HTTPEventLoop]
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

    /// Binds and starts serving on the server's threads; does nothing if already started.
    ///
    /// Raises the process's soft open-files limit (up to the hard limit) so that the
    /// configured connection limit can be reached.
    ///
    /// - Throws: ``HTTPServerError`` when the configuration is out of range or the address
    ///   cannot be bound (for example, the port is in use).
    public func start() throws(HTTPServerError) {
        try configuration.validate()
        // A connection over the limit must still be accepted, to close an idle one in its place.
        Self.raiseOpenFileLimit(to: configuration.connectionLimit + 64)
        let configuration = configuration
        let handler = handler
        let result: Result<Void, HTTPServerError> = state.withLock { state in
            guard state == nil else { return .success(()) }
            do throws(HTTPServerError) {
                state = try Self.serve(configuration: configuration, handler: handler)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Ends every streamed response, stops listening, closes every connection, waits for the
    /// server's threads to end and removes the Unix socket it created.
    public func stop() {
        // Under the lock: the loops never take it, so waiting for them cannot deadlock.
        state.withLock { state in
            guard let serving = state else { return }
            for loop in serving.loops { loop.requestStop() }
            for loop in serving.loops { loop.waitUntilStopped() }
            close(serving.listener)
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

    /// Binds the listening socket and starts the loops on it.
    private static func serve(
        configuration: HTTPServerConfiguration, handler: any HTTPRequestHandler
    ) throws(HTTPServerError) -> Serving {
        var unixSocket: UnixListenSocket?
        let listener: Int32
        if let path = configuration.socketPath {
            let socket = try UnixListenSocket(path, backlog: listenBacklog)
            unixSocket = socket
            listener = socket.descriptor
        } else {
            listener = try bind(configuration)
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let shared = HTTPServerShared(handler: handler, configuration: configuration)
        var loops: [HTTPEventLoop] = []
        do throws(HTTPServerError) {
            for _ in 0..<configuration.threads {
                loops.append(try HTTPEventLoop(shared: shared, listener: listener))
            }
        } catch {
            close(listener)
            unixSocket?.remove()
            throw error
        }
        for loop in loops { loop.start() }
        return Serving(
            listener: listener, port: unixSocket == nil ? boundPort(listener) : 0, loops: loops,
            unixSocket: unixSocket)
    }

    /// A listening TCP socket on the configured address (an IPv6 one takes IPv4 clients too).
    private static func bind(_ configuration: HTTPServerConfiguration) throws(HTTPServerError)
        -> Int32
    {
        let address = try configuration.listen.socketAddress()
        let family = configuration.listen.isIPv6 ? AF_INET6 : AF_INET
        let listener = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else {
            throw .cannotStart(address: configuration.listenDescription, reason: lastError())
        }
        var on: Int32 = 1
        var off: Int32 = 0
        let size = socklen_t(MemoryLayout<Int32>.size)
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, size)
        if family == AF_INET6 {
            _ = setsockopt(listener, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, size)
        }
        let bound = address.withUnsafeBytes {
            Glibc.bind(
                listener, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                socklen_t($0.count))
        }
        guard bound == 0, listen(listener, Int32(listenBacklog)) == 0 else {
            let reason =
                errno == EADDRINUSE
                ? "the address is taken (another headroom serve, or another program, may"
                    + " listen there: stop it, or choose another port)" : lastError()
            close(listener)
            throw .cannotStart(address: configuration.listenDescription, reason: reason)
        }
        return listener
    }

    /// The port `listener` is bound to (the kernel's choice for port 0).
    private static func boundPort(_ listener: Int32) -> UInt16 {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(listener, $0, &length)
            }
        }
        guard found == 0 else { return 0 }
        return withUnsafePointer(to: &address) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            default:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
            }
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
