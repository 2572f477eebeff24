/// A request as the HTTP server hands it to its handler: method, path, the headers handlers
/// use, the body, and whether it came from this machine (loopback or a Unix socket).
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `DELETE`, …
    public var method: String
    /// The path, without the query string.
    public var path: String
    /// The headers handlers read, by lowercase name: `accept`, `authorization`,
    /// `last-event-id`, `content-type`; absent ones are left out.
    public var headers: [String: String]
    /// The body (at most the server's ``HTTPServerConfiguration/bodyLimit`` bytes).
    public var body: [UInt8]
    /// Whether the request came from this machine: over a Unix domain socket, or from a
    /// loopback address (127.0.0.0/8, ::1) — on a loopback listener or on one bound beyond.
    public var isLocal: Bool

    /// The header names the server collects for its handler.
    public static let collectedHeaders = [
        "Accept", "Authorization", "Last-Event-ID", "Content-Type",
    ]

    /// A request with every field given.
    public init(
        method: String, path: String, headers: [String: String] = [:], body: [UInt8] = [],
        isLocal: Bool = true
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.isLocal = isLocal
    }
}

/// What a handler answers: a whole response, or a body that is produced over time.
public enum HTTPAnswer: Sendable {
    /// A response sent at once.
    case response(HTTPResponse)
    /// A streamed response (Server-Sent Events), sent as its source produces bytes.
    case stream(HTTPStreamResponse)
}

/// The head of a streamed response and the source of its body.
public struct HTTPStreamResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The `Content-Type` header value.
    public var contentType: String
    /// Extra headers.
    public var headers: [String: String]
    /// Where the body's bytes come from.
    public var source: any HTTPStreamSource

    /// A streamed response with every field given.
    public init(
        status: Int = 200, contentType: String, headers: [String: String] = [:],
        source: any HTTPStreamSource
    ) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.source = source
    }
}

/// What one read of a stream source gave.
public enum HTTPStreamRead: Sendable, Hashable {
    /// This many bytes were copied into the buffer.
    case bytes(Int)
    /// Nothing now: the source calls the wake-up it was given once it has more (or ends).
    case wait
    /// The body is complete; the server ends the response.
    case end
}

/// The body of a streamed response, read by the server's threads as the connection can take
/// it. A source never blocks: with nothing to give it answers ``HTTPStreamRead/wait`` and later
/// calls the wake-up it was given, once, outside any lock of its own.
public protocol HTTPStreamSource: AnyObject, Sendable {
    /// Copies up to `buffer.count` bytes into `buffer`, or says to wait (then calls `wake`
    /// once when there is more) or that the body ended.
    func read(into buffer: UnsafeMutableRawBufferPointer, wake: @escaping @Sendable () -> Void)
        -> HTTPStreamRead
    /// The connection is gone (the client left, or the server stopped): release what the
    /// stream holds. Called once.
    func close()
}

/// Answers the HTTP server's requests: a pure function from request to answer, called on the
/// server's threads, so it must not block.
public protocol HTTPRequestHandler: Sendable {
    /// The answer to `request`.
    func respond(to request: HTTPRequest) -> HTTPAnswer
}
