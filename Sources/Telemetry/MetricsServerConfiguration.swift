/// Where the metrics server listens and the bounds that keep a misbehaving client from
/// starving it.
public struct MetricsServerConfiguration: Sendable, Hashable {
    /// The address to serve on; loopback unless the user asks otherwise.
    public var listen: ListenAddress
    /// Most connections open at once (1–60000); more are accepted and closed at once.
    public var connectionLimit: Int
    /// Bytes of memory per connection for the request line and headers (4 KiB–1 MiB); a
    /// request whose headers do not fit is answered 431 and closed.
    public var requestMemoryLimit: Int
    /// Seconds a connection may stay idle before it is closed (1–3600).
    public var idleTimeoutSeconds: Int
    /// Threads answering requests (1–64); each one polls its share of connections with epoll.
    public var threads: Int

    /// Creates a configuration; the defaults serve a Prometheus server plus a few humans.
    public init(
        listen: ListenAddress = .defaultLoopback, connectionLimit: Int = 4096,
        requestMemoryLimit: Int = 16 * 1024, idleTimeoutSeconds: Int = 15, threads: Int = 2
    ) {
        self.listen = listen
        self.connectionLimit = connectionLimit
        self.requestMemoryLimit = requestMemoryLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.threads = threads
    }

    /// Throws the first bound that is out of range.
    func validate() throws(MetricsServerError) {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ field: String)
            throws(MetricsServerError)
        {
            guard range.contains(value) else {
                throw .invalidConfiguration(
                    field: field,
                    expected: "\(range.lowerBound)...\(range.upperBound), got \(value)"
                )
            }
        }
        try check(connectionLimit, 1...60000, "connectionLimit")
        try check(requestMemoryLimit, 4096...(1 << 20), "requestMemoryLimit")
        try check(idleTimeoutSeconds, 1...3600, "idleTimeoutSeconds")
        try check(threads, 1...64, "threads")
    }
}
