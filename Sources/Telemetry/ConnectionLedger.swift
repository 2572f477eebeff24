/// The server's account of its open connections: who opened each one and whether it is in the
/// middle of a request. It decides which connection to close when a new one would exceed the
/// per-client or the total bound.
///
/// A connection is *idle* from the moment it opens until its request's headers have arrived,
/// and again after each response: a connection that sends nothing, or sends a request slowly,
/// is idle. The policy closes the oldest idle connection rather than refusing the new one, so
/// a flood of idle connections from one address never locks out a scraper that shares it
/// (loopback, NAT): the scraper's connection is the newest and leaves the idle queue as soon
/// as its request is read. Only when nothing else is idle is the new connection itself closed.
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

    /// Records a new idle connection from `client` and returns the connections to close so
    /// that both bounds hold again: the client's oldest idle connection when the client is
    /// over its bound, then the oldest idle connection of all when the total is. The new
    /// connection is chosen only when nothing older is idle. Those returned are forgotten at
    /// once; their later ``closed(_:)`` does nothing.
    mutating func opened(_ connection: Connection, from client: Client) -> [Connection] {
        guard clients[connection] == nil else { return [] }
        clients[connection] = client
        openCount[client, default: 0] += 1
        idle.append(connection)
        idleByClient[client, default: InsertionOrderedSet()].append(connection)
        var closing: [Connection] = []
        if count(from: client) > perClientLimit, let oldest = idleByClient[client]?.first {
            forget(oldest)
            closing.append(oldest)
        }
        if count > totalLimit, let oldest = idle.first {
            forget(oldest)
            closing.append(oldest)
        }
        return closing
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
        openCount[client]! -= 1
        if openCount[client] == 0 { openCount[client] = nil }
    }
}
