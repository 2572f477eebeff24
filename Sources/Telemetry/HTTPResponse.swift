/// An answer of the metrics endpoint, independent of the HTTP server that sends it.
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The `Content-Type` header value.
    public var contentType: String
    /// Extra headers, e.g. `Allow` on 405.
    public var headers: [String: String]
    /// The body bytes (UTF-8 text or JSON for every route).
    public var body: [UInt8]

    /// Creates a response with a UTF-8 text body.
    public init(
        status: Int, contentType: String, body: String, headers: [String: String] = [:]
    ) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = Array(body.utf8)
    }

    /// Creates a response with a body already in bytes.
    public init(
        status: Int, contentType: String, bytes: [UInt8], headers: [String: String] = [:]
    ) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = bytes
    }
}
