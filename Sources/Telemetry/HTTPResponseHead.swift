#if canImport(Glibc)
    import Glibc
#endif

/// How the body after a response head is delimited.
enum HTTPResponseFraming {
    /// `Content-Length` bytes (sent or, for `HEAD`, only announced).
    case length(Int)
    /// Chunked transfer coding (a stream to an HTTP/1.1 client).
    case chunked
    /// The end of the connection (a stream to an HTTP/1.0 client).
    case close
}

/// The bytes of HTTP/1.1 response heads and of chunked coding.
enum HTTPResponseHead {
    /// A response head: status line, `Date`, `Content-Type`, the extra headers, the framing
    /// and `Connection: close` when the connection ends after it (`Connection: keep-alive`
    /// when it does not for an HTTP/1.0 client, which would otherwise wait for the end).
    static func bytes(
        status: Int, contentType: String, headers: [String: String],
        framing: HTTPResponseFraming, closing: Bool, minorVersion: Int,
        date: some Sequence<UInt8>
    ) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason(for: status))\r\nDate: "
        head.reserveCapacity(160)
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: date)
        head = "\r\nContent-Type: \(contentType.withoutLineBreaks)\r\n"
        for (name, value) in headers {
            head += "\(name.withoutLineBreaks): \(value.withoutLineBreaks)\r\n"
        }
        switch framing {
        case .length(let length): head += "Content-Length: \(length)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .close: break
        }
        head +=
            closing
            ? "Connection: close\r\n\r\n"
            : minorVersion == 0 ? "Connection: keep-alive\r\n\r\n" : "\r\n"
        bytes.append(contentsOf: head.utf8)
        return bytes
    }

    /// What an HTTP/1.1 server sends a client that waits before sending its body.
    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The chunk that ends a chunked body (with no trailer).
    static let lastChunk = Array("0\r\n\r\n".utf8)

    /// Appends `data` to `output` as one chunk.
    static func appendChunk(_ data: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        var size = Array(String(data.count, radix: 16).utf8)
        size += [.carriageReturn, .lineFeed]
        output.append(contentsOf: size)
        output.append(contentsOf: data)
        output.append(contentsOf: [.carriageReturn, .lineFeed])
    }

    /// The reason phrase of a status code.
    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}

/// The `Date` header's value (RFC 9110 IMF-fixdate), made once a second.
struct HTTPDate {
    private var second: time_t = -1
    private var text: [UInt8] = []

    /// The value for the current second.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        guard now != second else { return text }
        var parts = tm()
        var copy = now
        gmtime_r(&copy, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let value =
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)])"
            + " \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):"
            + "\(two(parts.tm_sec)) GMT"
        second = now
        text = Array(value.utf8)
        return text
    }
}

extension String {
    /// The string with CR and LF left out, so a header cannot be split by a value.
    fileprivate var withoutLineBreaks: String {
        let isBreak = { (byte: UInt8) in byte == .carriageReturn || byte == .lineFeed }
        return utf8.contains(where: isBreak)
            ? String(decoding: utf8.filter { !isBreak($0) }, as: UTF8.self) : self
    }
}
