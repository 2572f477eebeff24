/// The server's account of its open connections: who opened each one and whether it is in the
/// middle of a request. It decides which connection to close when a new one would exceed the
/// per-client or the total bound.
///
/// A connection is *idle* from the moment it opens until its request's headers have arrived,
/// and again after each response: a connection that sends nothing, or sends a request slowly,
/// is idle. The policy closes the oldest idle connection rather than refusing the new one, so
/// a flood of idle connections from one address never locks out a scraper that shares it
/// (loopback, NAT): the scraper's connection is the newest and leaves the idle queue as soon
/// as its request is read. A connection holding a *stream* (an event stream's long response)
/// is given up next, oldest first: a stream can be resumed (`Last-Event-ID`), so readers never
/// lock out a scrape or a request from their address, however many they are and whether their
/// clients are still there. Only when nothing else is idle or streaming is the new connection
/// itself closed.
///
/// A pure value: the server keeps it under a lock and does the closing.
struct ConnectionLedger<Connection: Hashable, Client: Hashable> {
    /// Most connections open at once.
    let totalLimit: Int
    /// Most connections open at once from one client.
    let perClientLimit: Int

    private var clients: [Connection: Client] = [:]
    private var openCount: [Client: Int] = [:]
    private var idle = InsertionOrderedSet<Connection>()
    private var idleByClient: [Client: InsertionOrderedSet<Connection>] = [:]
    private var streaming = InsertionOrderedSet<Connection>()
    private var streamingByClient: [Client: InsertionOrderedSet<Connection>] = [:]

    /// A ledger with no connection; both limits are at least 1.
    init(totalLimit: Int, perClientLimit: Int) {
        precondition(totalLimit >= 1 && perClientLimit >= 1, "connection limits must be >= 1")
        self.totalLimit = totalLimit
        self.perClientLimit = perClientLimit
    }

    /// Connections open (and not yet chosen for closing).
    var count: Int { clients.count }

    /// Connections open from `client`.
    func count(from client: Client) -> Int {
        openCount[client] ?? 0
    }

    /// Whether `connection` is open and not inside a request.
    func isIdle(_ connection: Connection) -> Bool {
        idle.contains(connection)
    }

    /// Whether `connection` is open and holding a stream.
    func isStreaming(_ connection: Connection) -> Bool {
        streaming.contains(connection)
    }

    /// Records a new idle connection from `client` and returns the connections to close so
    /// that both bounds hold again: when the client is over its bound, its oldest idle
    /// connection, else its oldest stream; then, when the total is over, the oldest idle
    /// connection of all, else the oldest stream. The new connection is chosen only when
    /// nothing older is idle or streaming. Those returned are forgotten at once; their later
    /// ``closed(_:)`` does nothing.
    mutating func opened(_ connection: Connection, from client: Client) -> [Connection] {
        guard clients[connection] == nil else { return [] }
        clients[connection] = client
        openCount[client, default: 0] += 1
        idle.append(connection)
        idleByClient[client, default: InsertionOrderedSet()].append(connection)
        var closing: [Connection] = []
        if count(from: client) > perClientLimit,
            let oldest = oldestOther(idleByClient[client], streamingByClient[client], connection)
        {
            forget(oldest)
            closing.append(oldest)
        }
        if count > totalLimit, let oldest = oldestOther(idle, streaming, connection) {
            forget(oldest)
            closing.append(oldest)
        }
        return closing
    }

    /// The oldest idle connection other than `new`, else the oldest stream, else `new`.
    private func oldestOther(
        _ idle: InsertionOrderedSet<Connection>?, _ streams: InsertionOrderedSet<Connection>?,
        _ new: Connection
    ) -> Connection? {
        if let oldest = idle?.first, oldest != new { return oldest }
        return streams?.first ?? idle?.first
    }

    /// The connection's response is a stream: it stays busy until the stream ends, and may be
    /// given up for a new connection once nothing is idle.
    mutating func streamStarted(_ connection: Connection) {
        guard let client = clients[connection] else { return }
        streaming.append(connection)
        streamingByClient[client, default: InsertionOrderedSet()].append(connection)
    }

    /// The request's headers have arrived: the connection is busy until ``requestEnded(_:)``.
    mutating func requestStarted(_ connection: Connection) {
        guard let client = clients[connection] else { return }
        idle.remove(connection)
        idleByClient[client]?.remove(connection)
    }

    /// The response is sent (or the request failed): the connection is idle again, now the
    /// newest idle one.
    mutating func requestEnded(_ connection: Connection) {
        guard let client = clients[connection] else { return }
        removeStream(connection, of: client)
        idle.append(connection)
        idleByClient[client, default: InsertionOrderedSet()].append(connection)
    }

    /// The connection is gone.
    mutating func closed(_ connection: Connection) {
        forget(connection)
    }

    private mutating func forget(_ connection: Connection) {
        guard let client = clients.removeValue(forKey: connection) else { return }
        idle.remove(connection)
        idleByClient[client]?.remove(connection)
        if idleByClient[client]?.isEmpty == true { idleByClient[client] = nil }
        removeStream(connection, of: client)
        openCount[client]! -= 1
        if openCount[client] == 0 { openCount[client] = nil }
    }

    private mutating func removeStream(_ connection: Connection, of client: Client) {
        streaming.remove(connection)
        streamingByClient[client]?.remove(connection)
        if streamingByClient[client]?.isEmpty == true { streamingByClient[client] = nil }
    }
}
