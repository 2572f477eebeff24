import CWakeup
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// One accepted connection, as its event loop sees it: the server's only identity for it (an
/// ID no other connection of the process ever has, and its socket).
struct ServedConnection: Hashable, Sendable {
    /// Unique for the server's life, so a socket number reused is never mistaken for this one.
    let id: UInt64
    /// The connected socket.
    let socket: Int32
}

/// What a connection needs of the loop that serves it.
protocol HTTPConnectionHost: AnyObject {
    /// The handler, the bounds and the connection ledger the loops share.
    var shared: HTTPServerShared { get }
    /// The `Date` header's value now.
    func date() -> [UInt8]
    /// A buffer to receive into and to read streams into, used by one connection at a time.
    var scratch: UnsafeMutableRawBufferPointer { get }
    /// A wake-up for the stream of `connection`, callable from any thread.
    func wakeUp(_ connection: ServedConnection) -> @Sendable () -> Void
}

/// A streamed response in progress on a connection.
private final class HTTPStream {
    let source: any HTTPStreamSource
    /// Chunked coding (HTTP/1.1); else the body ends with the connection (HTTP/1.0).
    let isChunked: Bool
    /// Whether the connection ends with the stream.
    let closes: Bool
    /// The source answered `wait` and has not woken the connection since.
    var isWaiting = false
    private var isClosed = false

    init(source: any HTTPStreamSource, isChunked: Bool, closes: Bool) {
        self.source = source
        self.isChunked = isChunked
        self.closes = closes
    }

    /// Tells the source, once, that the stream is over.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        source.close()
    }
}

/// An HTTP/1.1 connection's state, driven by its event loop's thread only: the bytes received
/// and not yet read, the bytes to send, and where it is in its request-response cycle. Requests
/// on a connection are answered one at a time, in order (pipelined ones wait in `input`).
final class HTTPConnection {
    private enum Phase {
        /// Waiting for a request head.
        case head
        /// Reading a request's body.
        case body(HTTPRequestHead, HTTPBodyReader)
        /// A whole response is being sent; then the next request, or the end.
        case answering(closes: Bool)
        /// A streamed response is being sent.
        case streaming(HTTPStream)
        /// The server has said all it will and shut its side; the client's remaining bytes are
        /// read and dropped until it closes, so they cannot reset the connection before it has
        /// read the answer.
        case lingering(dropped: Int)
    }

    /// Most bytes dropped while lingering before the connection is closed anyway.
    private static let lingerLimit = 1 << 20
    /// Most bytes of a stream waiting to be sent before the stream is read again.
    private static let outputHighWater = 16 * 1024

    let served: ServedConnection
    private let isLocal: Bool
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var sent = 0
    private var phase = Phase.head
    private var peerEnded = false
    /// How many bytes of `input` were looked at for the end of a head that had not arrived.
    private var headBytesSeen = 0
    /// The ledger counts a request in progress, until its response is sent.
    private var isInRequest = false
    /// When the last byte was received or sent.
    private(set) var lastActivity: MonotonicInstant
    /// The epoll events the loop watches for.
    var interest: UInt32 = 0

    init(_ served: ServedConnection, isLocal: Bool, now: MonotonicInstant) {
        self.served = served
        self.isLocal = isLocal
        self.lastActivity = now
    }

    /// Whether the connection is a stream waiting for its source with nothing to send: not
    /// silent but idle by the server's choice, so the idle timeout does not apply.
    var isWaitingForSource: Bool {
        if case .streaming(let stream) = phase {
            stream.isWaiting && sent == output.count
        } else {
            false
        }
    }

    /// The epoll events the connection needs now: input while a request can be read, output
    /// while bytes wait to be sent, the peer's hang-up always until it has been seen.
    var neededInterest: UInt32 {
        var events: UInt32 = 0
        if sent < output.count { events |= UInt32(EPOLLOUT.rawValue) }
        if !peerEnded {
            events |= UInt32(EPOLLRDHUP.rawValue)
            switch phase {
            case .head, .body, .lingering:
                if sent == output.count { events |= UInt32(EPOLLIN.rawValue) }
            case .answering, .streaming:
                break
            }
        }
        return events
    }

    /// Receives what the socket holds; false when the connection must close (an error, or the
    /// client gone while nothing is left to answer).
    func receive(host: some HTTPConnectionHost, now: MonotonicInstant) -> Bool {
        let scratch = host.scratch
        for _ in 0..<8 {
            let count = recv(served.socket, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                lastActivity = now
                if case .lingering(let dropped) = phase {
                    guard dropped + count <= Self.lingerLimit else { return false }
                    phase = .lingering(dropped: dropped + count)
                } else {
                    input.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                    // A head is read before more is taken, and a body as it arrives: more than
                    // both bounds waiting unread is a client sending past its answer.
                    let bounds = host.shared.configuration
                    guard input.count <= bounds.requestMemoryLimit + bounds.bodyLimit else {
                        return false
                    }
                    // Enough to work on: the loop reads more once this is read.
                    if input.count >= bounds.requestMemoryLimit { return true }
                }
                if count < scratch.count { return true }
            } else if count == 0 {
                peerEnded = true
                return true
            } else if errno == EINTR {
                continue
            } else {
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
        }
        return true
    }

    /// The stream's source has more: it is read again at the next ``advance(host:now:)``.
    func sourceWoke() {
        if case .streaming(let stream) = phase { stream.isWaiting = false }
    }

    /// Sends what it can and moves on through requests and responses until it must wait for
    /// the socket or the stream's source; false when the connection must close.
    func advance(host: some HTTPConnectionHost, now: MonotonicInstant) -> Bool {
        while true {
            if sent < output.count {
                guard flush(now: now) else { return false }
                guard sent == output.count else { return true }
                guard outputSent(host: host) else { return false }
            }
            switch step(host: host) {
            case .progressed: continue
            case .waiting: return true
            case .close: return false
            }
        }
    }

    /// Ends the connection's stream, if any, and tells the ledger it is gone; the loop closes
    /// the socket.
    func closed(host: some HTTPConnectionHost) {
        if case .streaming(let stream) = phase { stream.close() }
        host.shared.closed(served)
    }

    /// Ends a streamed response for the server's stop: the last chunk is sent if the socket
    /// takes it at once.
    func endForStop(now: MonotonicInstant) {
        guard case .streaming(let stream) = phase else { return }
        stream.close()
        if stream.isChunked { output += HTTPResponseHead.lastChunk }
        _ = flush(now: now)
    }

    private enum Step {
        case progressed, waiting, close
    }

    private func step(host: some HTTPConnectionHost) -> Step {
        switch phase {
        case .head:
            return readHead(host: host)
        case .body(let head, var reader):
            let taken: Int
            do throws(HTTPRequestError) {
                taken = try reader.read(input[...])
            } catch {
                return reject(error, host: host)
            }
            input.removeFirst(taken)
            if reader.isTooLarge {
                let limit = host.shared.configuration.bodyLimit
                return answer(
                    HTTPResponse.bodyTooLarge(limit: limit), to: head, closes: true, host: host)
            }
            guard reader.isComplete else {
                phase = .body(head, reader)
                return peerEnded ? .close : .waiting
            }
            return dispatch(head, body: reader.body, host: host)
        case .answering:
            return .waiting
        case .streaming(let stream):
            // A reader that hangs up is gone: a stream is never read half-closed.
            return peerEnded ? .close : read(stream, host: host)
        case .lingering:
            return peerEnded ? .close : .waiting
        }
    }

    private func readHead(host: some HTTPConnectionHost) -> Step {
        let limit = host.shared.configuration.requestMemoryLimit
        guard let end = HTTPRequestHead.end(in: input[...], known: headBytesSeen) else {
            headBytesSeen = input.count
            if input.count > limit {
                return reject(
                    .init(status: 431, problem: "request head over \(limit) bytes"), host: host)
            }
            return peerEnded ? .close : .waiting
        }
        guard end <= limit else {
            return reject(
                .init(status: 431, problem: "request head over \(limit) bytes"), host: host)
        }
        let head: HTTPRequestHead
        do throws(HTTPRequestError) {
            head = try HTTPRequestHead(parsing: input[..<end])
        } catch {
            return reject(error, host: host)
        }
        input.removeFirst(end)
        headBytesSeen = 0
        host.shared.requestStarted(served)
        isInRequest = true
        let reader = HTTPBodyReader(
            framing: head.framing, limit: host.shared.configuration.bodyLimit)
        if reader.isTooLarge {
            let tooLarge = HTTPResponse.bodyTooLarge(limit: host.shared.configuration.bodyLimit)
            return answer(tooLarge, to: head, closes: true, host: host)
        }
        if reader.isComplete { return dispatch(head, body: [], host: host) }
        if head.expectsContinue { output += HTTPResponseHead.continueLine }
        phase = .body(head, reader)
        return .progressed
    }

    private func dispatch(_ head: HTTPRequestHead, body: [UInt8], host: some HTTPConnectionHost)
        -> Step
    {
        let request = HTTPRequest(
            method: head.method, path: head.path, headers: head.headers, body: body,
            isLocal: isLocal)
        switch host.shared.handler.respond(to: request) {
        case .response(let response):
            return answer(response, to: head, closes: !head.keepsAlive, host: host)
        case .stream(let response):
            let isChunked = head.minorVersion == 1
            let stream = HTTPStream(
                source: response.source, isChunked: isChunked,
                closes: !isChunked || !head.keepsAlive)
            output += HTTPResponseHead.bytes(
                status: response.status, contentType: response.contentType,
                headers: response.headers, framing: isChunked ? .chunked : .close,
                closing: stream.closes, minorVersion: head.minorVersion, date: host.date())
            host.shared.streamStarted(served)
            phase = .streaming(stream)
            return .progressed
        }
    }

    /// Queues a whole response (its body left out for `HEAD`).
    private func answer(
        _ response: HTTPResponse, to head: HTTPRequestHead?, closes: Bool,
        host: some HTTPConnectionHost
    ) -> Step {
        output += HTTPResponseHead.bytes(
            status: response.status, contentType: response.contentType,
            headers: response.headers, framing: .length(response.body.count), closing: closes,
            minorVersion: head?.minorVersion ?? 1, date: host.date())
        if head?.method != "HEAD" { output += response.body }
        phase = .answering(closes: closes)
        return .progressed
    }

    /// Answers a request the handler cannot see, and ends the connection after it.
    private func reject(_ error: HTTPRequestError, host: some HTTPConnectionHost) -> Step {
        let response =
            error.status == 413
            ? HTTPResponse.bodyTooLarge(limit: host.shared.configuration.bodyLimit)
            : HTTPResponse(
                status: error.status, contentType: "text/plain; charset=utf-8",
                body: "\(error.problem)\n")
        return answer(response, to: nil, closes: true, host: host)
    }

    /// Reads the stream's source into chunks while little waits to be sent.
    private func read(_ stream: HTTPStream, host: some HTTPConnectionHost) -> Step {
        guard !stream.isWaiting, output.count - sent < Self.outputHighWater else { return .waiting }
        let scratch = host.scratch
        let buffer = UnsafeMutableRawBufferPointer(rebasing: scratch[..<min(scratch.count, 4096)])
        switch stream.source.read(into: buffer, wake: host.wakeUp(served)) {
        case .bytes(let count) where count > 0:
            let data = UnsafeRawBufferPointer(rebasing: buffer[..<min(count, buffer.count)])
            if stream.isChunked {
                HTTPResponseHead.appendChunk(data, to: &output)
            } else {
                output.append(contentsOf: data)
            }
            return .progressed
        case .bytes, .wait:
            stream.isWaiting = true
            return .waiting
        case .end:
            stream.close()
            if stream.isChunked { output += HTTPResponseHead.lastChunk }
            phase = .answering(closes: stream.closes)
            return .progressed
        }
    }

    /// Everything queued has been sent: a request is over, and the connection goes on to the
    /// next one or ends. False when it must close at once.
    private func outputSent(host: some HTTPConnectionHost) -> Bool {
        output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
        sent = 0
        guard case .answering(let closes) = phase else { return true }
        if isInRequest {
            isInRequest = false
            host.shared.requestEnded(served)
        }
        guard closes else {
            phase = .head
            return true
        }
        guard !peerEnded else { return false }
        shutdown(served.socket, Int32(SHUT_WR))
        input.removeAll()
        phase = .lingering(dropped: 0)
        return true
    }

    /// Sends queued bytes until the socket would block; false on an error.
    private func flush(now: MonotonicInstant) -> Bool {
        while sent < output.count {
            let count = output.withUnsafeBytes { bytes in
                send(
                    served.socket, bytes.baseAddress! + sent, bytes.count - sent,
                    Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                lastActivity = now
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            }
        }
        return true
    }
}
