import CWakeup
import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// What the server's event loops share: the handler, the bounds, and the ledger that decides
/// which connections a new one closes.
final class HTTPServerShared: Sendable {
    /// Answers every request.
    let handler: any HTTPRequestHandler
    /// The bounds the server was started with.
    let configuration: HTTPServerConfiguration
    private let ledger: LockedState<Ledger>

    private struct Ledger {
        var connections: ConnectionLedger<ServedConnection, ClientAddress>
        var nextID: UInt64 = 1
    }

    init(handler: any HTTPRequestHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
        self.ledger = LockedState(
            Ledger(
                connections: ConnectionLedger(
                    totalLimit: configuration.connectionLimit,
                    perClientLimit: configuration.perClientConnectionLimit)))
    }

    /// Records a new connection on `socket` and shuts down those the ledger gives up (an idle
    /// one, else a stream, or the new one itself); their loops see the hang-up and close them.
    func opened(socket: Int32, from client: ClientAddress) -> ServedConnection {
        ledger.withLock { ledger in
            let connection = ServedConnection(id: ledger.nextID, socket: socket)
            ledger.nextID += 1
            // Under the lock: a loop closes a socket only after `closed`, which waits for it,
            // so every socket the ledger gives up is still the connection it names.
            for closing in ledger.connections.opened(connection, from: client) {
                shutdown(closing.socket, Int32(SHUT_RDWR))
            }
            return connection
        }
    }

    /// The connection's response is a stream (see ``ConnectionLedger/streamStarted(_:)``).
    func streamStarted(_ connection: ServedConnection) {
        ledger.withLock { $0.connections.streamStarted(connection) }
    }

    /// A request's head has arrived on the connection.
    func requestStarted(_ connection: ServedConnection) {
        ledger.withLock { $0.connections.requestStarted(connection) }
    }

    /// The connection's response has been sent.
    func requestEnded(_ connection: ServedConnection) {
        ledger.withLock { $0.connections.requestEnded(connection) }
    }

    /// The connection is about to be closed.
    func closed(_ connection: ServedConnection) {
        ledger.withLock { $0.connections.closed(connection) }
    }
}

/// One of the server's threads: accepts connections from the shared listening socket and
/// serves them — reading, answering, streaming, closing silent ones — with one `epoll` wait.
///
/// Each loop's epoll set holds the listening socket exclusively, so a new connection wakes one
/// loop: one that is waiting, so connections go to a loop with nothing to do. The loops are
/// not handed connections in turn: handing a connection to another loop costs that loop a
/// wake-up, and with two loops beside a client on two cores, a `/metrics` answer cost 56–60 µs
/// of CPU that way against 47–58 served where accepted (`wrk -t1 -c8`).
final class HTTPEventLoop: Sendable {
    private let shared: HTTPServerShared
    private let listener: Int32
    private let poll: Int32
    private let wakeup: Int32
    private let pending = LockedState(Pending())
    private let finished = Completion<Void>()

    /// What other threads ask of the loop.
    fileprivate struct Pending {
        /// Connections whose stream's source has more.
        var woken: [ServedConnection] = []
        var isStopping = false
    }

    fileprivate static let listenerToken = UInt64.max
    fileprivate static let wakeupToken = UInt64.max - 1

    /// A loop serving `listener` (a listening, non-blocking socket) for `shared`; it runs once
    /// ``start()`` is called.
    init(shared: HTTPServerShared, listener: Int32) throws(HTTPServerError) {
        self.shared = shared
        self.listener = listener
        poll = headroom_epoll_create()
        wakeup = headroom_eventfd()
        let exclusive = UInt32(EPOLLIN.rawValue) | UInt32(EPOLLEXCLUSIVE.rawValue)
        guard poll >= 0, wakeup >= 0,
            headroom_epoll_add(poll, wakeup, UInt32(EPOLLIN.rawValue), Self.wakeupToken) == 0,
            headroom_epoll_add(poll, listener, exclusive, Self.listenerToken) == 0
        else {
            let reason = String(cString: strerror(errno))
            if poll >= 0 { close(poll) }
            if wakeup >= 0 { close(wakeup) }
            throw .cannotStart(
                address: shared.configuration.listenDescription, reason: "epoll: \(reason)")
        }
    }

    deinit {
        close(poll)
        close(wakeup)
    }

    /// Starts serving on a thread of its own, `headroom-http`.
    func start() {
        DetachedThread.start(name: "headroom-http") { [self] in
            let runner = HTTPLoopRunner(loop: self, shared: shared, listener: listener, poll: poll)
            runner.run()
            finished.complete(())
        }
    }

    /// Asks the loop to close every connection (ending streams first) and end its thread.
    func requestStop() {
        pending.withLock { $0.isStopping = true }
        signal()
    }

    /// Returns once the thread has ended.
    func waitUntilStopped() {
        finished.wait()
    }

    /// The stream of `connection` has more; callable from any thread.
    func wake(_ connection: ServedConnection) {
        pending.withLock { $0.woken.append(connection) }
        signal()
    }

    /// What other threads asked since the last look.
    fileprivate func takePending() -> Pending {
        var count: UInt64 = 0
        _ = read(wakeup, &count, MemoryLayout<UInt64>.size)
        return pending.withLock { pending in
            let taken = pending
            pending.woken.removeAll(keepingCapacity: true)
            return taken
        }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
    }
}

/// The state of an event loop's thread: its connections, by ID, and when it must next look
/// for silent ones.
private final class HTTPLoopRunner: HTTPConnectionHost {
    let shared: HTTPServerShared
    let scratch: UnsafeMutableRawBufferPointer
    private let loop: HTTPEventLoop
    private let listener: Int32
    private let poll: Int32
    private var connections: [UInt64: HTTPConnection] = [:]
    private var dateHeader = HTTPDate()
    /// The earliest time a connection may have been silent for the idle timeout.
    private var nextIdleCheck: MonotonicInstant?
    /// When accepting resumes after the process ran out of descriptors.
    private var acceptPausedUntil: MonotonicInstant?
    private let idleTimeout: Duration

    /// Connections accepted at one wake, so that one loop does not take a whole burst.
    private static let acceptBatch = 32
    /// How long accepting pauses when no descriptor is left.
    private static let acceptPause = Duration.milliseconds(100)

    init(loop: HTTPEventLoop, shared: HTTPServerShared, listener: Int32, poll: Int32) {
        self.loop = loop
        self.shared = shared
        self.listener = listener
        self.poll = poll
        self.idleTimeout = .seconds(shared.configuration.idleTimeoutSeconds)
        scratch = .allocate(byteCount: 16 * 1024, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    func date() -> [UInt8] {
        dateHeader.current()
    }

    func wakeUp(_ connection: ServedConnection) -> @Sendable () -> Void {
        { [loop] in loop.wake(connection) }
    }

    func run() {
        var tokens = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            let count = tokens.withUnsafeMutableBufferPointer { tokens in
                events.withUnsafeMutableBufferPointer { events in
                    headroom_epoll_wait(
                        poll, tokens.baseAddress, events.baseAddress, 64, timeout())
                }
            }
            let now = MonotonicClock.now()
            for index in 0..<Int(max(count, 0)) {
                switch tokens[index] {
                case HTTPEventLoop.wakeupToken:
                    let pending = loop.takePending()
                    if pending.isStopping {
                        closeAll(now: now)
                        return
                    }
                    for served in pending.woken {
                        guard let connection = connections[served.id] else { continue }
                        connection.sourceWoke()
                        serve(connection, now: now)
                    }
                case HTTPEventLoop.listenerToken:
                    accept(now: now)
                default:
                    guard let connection = connections[tokens[index]] else { continue }
                    handle(events[index], on: connection, now: now)
                }
            }
            if let pause = acceptPausedUntil, now >= pause {
                acceptPausedUntil = nil
                let exclusive = UInt32(EPOLLIN.rawValue) | UInt32(EPOLLEXCLUSIVE.rawValue)
                _ = headroom_epoll_add(poll, listener, exclusive, HTTPEventLoop.listenerToken)
            }
            if let check = nextIdleCheck, now >= check { closeSilent(now: now) }
        }
    }

    /// Nanoseconds until the next idle check or the end of an accept pause (epoll's
    /// timeout); -1 for none.
    private func timeout() -> Int64 {
        let deadlines = [nextIdleCheck, acceptPausedUntil].compactMap { $0 }
        guard let deadline = deadlines.min() else { return -1 }
        let now = MonotonicClock.now()
        return deadline > now ? Int64(clamping: deadline.nanoseconds - now.nanoseconds) : 0
    }

    private func accept(now: MonotonicInstant) {
        for _ in 0..<Self.acceptBatch {
            var address = sockaddr_storage()
            let socket = headroom_accept(
                listener, &address, UInt32(MemoryLayout<sockaddr_storage>.size))
            guard socket >= 0 else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Nothing can be accepted until a descriptor is freed: stop looking at the
                    // listener for a moment rather than wake for it again and again.
                    _ = headroom_epoll_remove(poll, listener)
                    acceptPausedUntil = now.advanced(by: Self.acceptPause)
                }
                return
            }
            let client = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
            }
            if Int32(address.ss_family) != AF_UNIX {
                var on: Int32 = 1
                _ = setsockopt(
                    socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on,
                    socklen_t(MemoryLayout<Int32>.size))
            }
            let served = shared.opened(socket: socket, from: client)
            let connection = HTTPConnection(
                served, isLocal: shared.configuration.isLocal || client.isLoopback, now: now)
            connection.interest = connection.neededInterest
            guard headroom_epoll_add(poll, socket, connection.interest, served.id) == 0 else {
                shared.closed(served)
                close(socket)
                continue
            }
            connections[served.id] = connection
            noteActive(connection)
        }
    }

    private func handle(_ events: UInt32, on connection: HTTPConnection, now: MonotonicInstant) {
        let failed = UInt32(EPOLLERR.rawValue) | UInt32(EPOLLHUP.rawValue)
        guard events & failed == 0 else { return closeConnection(connection) }
        let readable = UInt32(EPOLLIN.rawValue) | UInt32(EPOLLRDHUP.rawValue)
        if events & readable != 0, !connection.receive(host: self, now: now) {
            return closeConnection(connection)
        }
        serve(connection, now: now)
    }

    /// Moves the connection on as far as it goes, and watches for what it needs next.
    private func serve(_ connection: HTTPConnection, now: MonotonicInstant) {
        guard connection.advance(host: self, now: now) else { return closeConnection(connection) }
        let needed = connection.neededInterest
        if needed != connection.interest {
            connection.interest = needed
            _ = headroom_epoll_modify(poll, connection.served.socket, needed, connection.served.id)
        }
        noteActive(connection)
    }

    /// Makes sure the idle check comes in time for a connection that may fall silent.
    private func noteActive(_ connection: HTTPConnection) {
        guard !connection.isWaitingForSource else { return }
        let due = connection.lastActivity.advanced(by: idleTimeout)
        nextIdleCheck = min(nextIdleCheck ?? due, due)
    }

    /// Closes the connections silent for the idle timeout, and finds when to look next.
    private func closeSilent(now: MonotonicInstant) {
        nextIdleCheck = nil
        for connection in Array(connections.values) where !connection.isWaitingForSource {
            if now.duration(since: connection.lastActivity) >= idleTimeout {
                closeConnection(connection)
            } else {
                noteActive(connection)
            }
        }
    }

    private func closeConnection(_ connection: HTTPConnection) {
        connections[connection.served.id] = nil
        _ = headroom_epoll_remove(poll, connection.served.socket)
        connection.closed(host: self)
        close(connection.served.socket)
    }

    private func closeAll(now: MonotonicInstant) {
        for connection in Array(connections.values) {
            connection.endForStop(now: now)
            closeConnection(connection)
        }
        _ = headroom_epoll_remove(poll, listener)
    }
}
