/// Where the metrics server listens and the bounds that keep a misbehaving client from
/// starving it.
///
/// The connection bounds never make a new connection wait: a connection that would exceed
/// one closes the oldest *idle* connection (one with no request in progress) of the client, or
/// of all clients for the total, and is served. So a scrape is answered at once even while
/// another client, on the same address or not, holds thousands of idle connections.
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// The address to serve on; loopback unless the user asks otherwise.
    public var listen: ListenAddress
    /// Most connections open at once (1–60000). A connection beyond it closes the oldest idle
    /// one; when every open connection is inside a request, the new one is closed instead.
    public var connectionLimit: Int
    /// Most connections open at once from one client IP address (1–60000; above
    /// ``connectionLimit`` it has no effect). A client's connection beyond it closes that
    /// client's oldest idle connection, so one client can neither fill the server nor close
    /// another client's connections.
    ///
    /// A scraper that shares its address with a flood (loopback, NAT) is served as long as its
    /// request arrives before this many newer connections from the address do: keep it in the
    /// hundreds (256 by default keeps scrapes answered beside a loopback client that reopens
    /// every connection closed on it, at tens of thousands per second).
    public var perClientConnectionLimit: Int
    /// Bytes of memory per connection for the request line and headers (4 KiB–1 MiB); a
    /// request whose headers do not fit is answered 431 and closed.
    public var requestMemoryLimit: Int
    /// Seconds a connection may stay silent before it is closed (1–3600): before its first
    /// request, between requests, or while a request or a response is stalled.
    public var idleTimeoutSeconds: Int
    /// Threads answering requests (1–64); each one polls its share of connections with epoll.
    public var threads: Int
    /// Most bytes of a request body (0–16 MiB); a longer body is answered 413.
    public var bodyLimit: Int
    /// When set, the server listens on this Unix domain socket (created with mode 0660, a
    /// stale socket replaced, removed again on stop) instead of ``listen``.
    public var socketPath: String?

    /// Whether requests arrive from this machine only: a loopback address or a Unix socket.
    public var isLocal: Bool { socketPath != nil || listen.isLoopback }

    /// Where the server listens, as people read it: `127.0.0.1:9464` or `unix:/run/headroom.sock`.
    public var listenDescription: String {
        socketPath.map { "unix:\($0)" } ?? listen.description
    }

    /// Creates a configuration; the defaults serve a Prometheus server plus a few humans.
    public init(
        listen: ListenAddress = .defaultLoopback, connectionLimit: Int = 4096,
        perClientConnectionLimit: Int = 256, requestMemoryLimit: Int = 16 * 1024,
        idleTimeoutSeconds: Int = 5, threads: Int = 2, bodyLimit: Int = 64 * 1024,
        socketPath: String? = nil
    ) {
        self.listen = listen
        self.connectionLimit = connectionLimit
        self.perClientConnectionLimit = perClientConnectionLimit
        self.requestMemoryLimit = requestMemoryLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.threads = threads
        self.bodyLimit = bodyLimit
        self.socketPath = socketPath
    }

    /// Throws the first bound that is out of range.
    func validate() throws(HTTPServerError) {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ field: String)
            throws(HTTPServerError)
        {
            guard range.contains(value) else {
                throw .invalidConfiguration(
                    field: field,
                    expected: "\(range.lowerBound)...\(range.upperBound), got \(value)"
                )
            }
        }
        try check(connectionLimit, 1...60000, "connectionLimit")
        try check(perClientConnectionLimit, 1...60000, "perClientConnectionLimit")
        try check(requestMemoryLimit, 4096...(1 << 20), "requestMemoryLimit")
        try check(idleTimeoutSeconds, 1...3600, "idleTimeoutSeconds")
        try check(threads, 1...64, "threads")
        try check(bodyLimit, 0...(16 << 20), "bodyLimit")
    }
}
