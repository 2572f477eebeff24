import Locking
import Telemetry

/// The service's recent events, kept in a ring so that a reader can resume with
/// `Last-Event-ID`, and the readers waiting for the next one.
///
/// Event ids count up from ``firstID``, by default a random number for each log (so for each
/// process of `serve`): an id from an earlier process is then, all but surely, not one this
/// log gave, and a reader resuming with it gets every event kept instead of skipping the new
/// process's first ones.
///
/// Memory is bounded whatever the readers do: the ring keeps the ``lagLimit`` newest events
/// (no reader is served one older: a pressure event holds a whole reading, some 2 kB), a
/// reader holds only its position and one event's bytes, at most ``readerLimit`` readers are
/// open, and a reader more than ``lagLimit`` events behind is closed (it may reconnect and
/// resume).
public final class EventLog: Sendable {
    /// Events kept for resuming: the ``lagLimit`` newest, the farthest back a reader goes.
    public var capacity: Int { lagLimit }
    /// Most readers open at once.
    public let readerLimit: Int
    /// How far behind the newest event a reader may fall before it is closed.
    public let lagLimit: Int
    /// The first event's id.
    public let firstID: Int

    private struct State {
        var events: [ServiceEvent] = []
        /// Index in `events` of the oldest event once the ring is full.
        var start = 0
        var latestID: Int
        var heartbeats = 0
        var readers = 0
        var isClosed = false
        var wakers: [Int: @Sendable () -> Void] = [:]
        var nextWaker = 0
    }

    private let state: LockedState<State>

    /// A random first id: 1 to 2⁴⁰, far below 2⁵³ (exact in JavaScript and JSON readers).
    public static func randomFirstID() -> Int { Int.random(in: 1...(1 << 40)) }

    /// An empty log whose first event will have id `firstID` (at least 1).
    public init(readerLimit: Int = 256, lagLimit: Int = 256, firstID: Int = randomFirstID()) {
        self.readerLimit = readerLimit
        self.lagLimit = max(1, lagLimit)
        self.firstID = max(1, firstID)
        state = LockedState(State(latestID: self.firstID - 1))
    }

    /// The newest event's id (``firstID`` − 1 before the first).
    public var latestID: Int { state.withLock { $0.latestID } }

    /// How many readers are open.
    public var readerCount: Int { state.withLock { $0.readers } }

    /// Appends an event named `name` with `data` (one line of JSON) and wakes every waiting
    /// reader; returns its id.
    @discardableResult
    public func append(name: String, data: String) -> Int {
        let (id, wakers) = state.withLock { state in
            state.latestID += 1
            let event = ServiceEvent(id: state.latestID, name: name, data: data)
            if state.events.count < capacity {
                state.events.append(event)
            } else {
                state.events[state.start] = event
                state.start = (state.start + 1) % capacity
            }
            return (state.latestID, Self.takeWakers(&state))
        }
        for wake in wakers { wake() }
        return id
    }

    /// Asks every reader to send a keep-alive comment (proxies close silent connections).
    public func heartbeat() {
        let wakers = state.withLock { state in
            state.heartbeats += 1
            return Self.takeWakers(&state)
        }
        for wake in wakers { wake() }
    }

    /// Ends every reader's stream and refuses new readers (the service is stopping).
    public func close() {
        let wakers = state.withLock { state in
            state.isClosed = true
            return Self.takeWakers(&state)
        }
        for wake in wakers { wake() }
    }

    /// A new reader that sends the events after `lastEventID` (a resuming client's
    /// `Last-Event-ID`: one further back than ``lagLimit`` resumes that far back, saying what
    /// was missed; an id this log never gave — from an earlier process, or 0 — sends every
    /// event kept, within the lag limit), or only new events without one; nil when
    /// ``readerLimit`` readers are open.
    public func reader(after lastEventID: Int?) -> EventReader? {
        state.withLock { state -> EventReader? in
            guard state.readers < readerLimit, !state.isClosed else { return nil }
            state.readers += 1
            var cursor = state.latestID
            var greeting = ": headroom events after \(cursor)\n\n"
            let oldest = max(firstID - 1, state.latestID - lagLimit)
            if let lastEventID, ((firstID - 1)...state.latestID).contains(lastEventID) {
                cursor = max(lastEventID, oldest)
                greeting =
                    cursor == lastEventID
                    ? ": resuming after \(cursor)\n\n"
                    : ": events \(lastEventID + 1) to \(cursor) are no longer kept\n\n"
            } else if let lastEventID {
                cursor = oldest
                greeting =
                    ": \(lastEventID) is not an id of these events (the service restarted?):"
                    + " every event kept, from \(cursor + 1)\n\n"
            }
            return EventReader(
                log: self, cursor: cursor, heartbeats: state.heartbeats, greeting: greeting)
        }
    }

    /// What a reader at `cursor` gets next.
    enum Next {
        case event(ServiceEvent)
        case heartbeat(Int)
        case fellBehind(Int)
        case closed
        case wait
    }

    /// The next thing for a reader at `cursor` that has sent `heartbeats` keep-alives; when
    /// there is nothing, `wake` is kept and called once something comes.
    func next(after cursor: Int, heartbeats: Int, wake: @escaping @Sendable () -> Void) -> Next {
        state.withLock { state in
            if state.isClosed { return .closed }
            if state.latestID - cursor > lagLimit { return .fellBehind(state.latestID - cursor) }
            if cursor < state.latestID {
                // Within the lag limit, so within the ring: the event is still kept.
                let oldestID = state.latestID - state.events.count + 1
                let offset = cursor + 1 - oldestID
                return .event(state.events[(state.start + offset) % state.events.count])
            }
            if heartbeats < state.heartbeats { return .heartbeat(state.heartbeats) }
            state.nextWaker += 1
            state.wakers[state.nextWaker] = wake
            return .wait
        }
    }

    /// A reader's connection ended.
    func readerClosed() {
        state.withLock { $0.readers -= 1 }
    }

    private static func takeWakers(_ state: inout State) -> [@Sendable () -> Void] {
        defer { state.wakers = [:] }
        return Array(state.wakers.values)
    }
}

/// One `GET /v1/events` connection: the body of its streamed response, read by the server as
/// the connection takes it. Holds its position in the log and at most one event's bytes.
public final class EventReader: HTTPStreamSource, @unchecked Sendable {
    // Unchecked: `pending`, `cursor` and `heartbeats` are touched only by the server thread
    // that reads this connection's body, one read at a time.
    private let log: EventLog
    private var cursor: Int
    private var heartbeats: Int
    private var pending: [UInt8] = []
    private var sent = 0
    private var isEnding = false
    private let closedOnce = LockedState(false)

    init(log: EventLog, cursor: Int, heartbeats: Int, greeting: String) {
        self.log = log
        self.cursor = cursor
        self.heartbeats = heartbeats
        // A first comment gets the headers and the stream going at once.
        pending = Array(greeting.utf8)
    }

    /// Copies the next bytes of the stream into `buffer`, or says to wait for the next event.
    public func read(
        into buffer: UnsafeMutableRawBufferPointer, wake: @escaping @Sendable () -> Void
    ) -> HTTPStreamRead {
        if sent == pending.count {
            guard !isEnding else { return .end }
            sent = 0
            switch log.next(after: cursor, heartbeats: heartbeats, wake: wake) {
            case .event(let event):
                cursor = event.id
                pending = Array(event.wireText.utf8)
            case .heartbeat(let count):
                heartbeats = count
                pending = Array(": keep-alive\n\n".utf8)
            case .fellBehind(let lag):
                isEnding = true
                pending = Array(
                    ": closed: \(lag) events behind; reconnect with Last-Event-ID: \(cursor)\n\n"
                        .utf8)
            case .closed:
                isEnding = true
                pending = Array(": the service is stopping\n\n".utf8)
            case .wait:
                pending = []
                return .wait
            }
        }
        let count = min(buffer.count, pending.count - sent)
        pending.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[sent..<sent + count]))
        }
        sent += count
        return .bytes(count)
    }

    /// The connection is gone: the log counts one reader fewer.
    public func close() {
        let first = closedOnce.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { log.readerClosed() }
    }
}
