/// Why a request cannot be answered by its handler: the status the server answers with, and
/// what was wrong, for the error document.
struct HTTPRequestError: Error, Equatable {
    /// The status code: 400, 413, 417, 431, 501 or 505.
    let status: Int
    /// What was wrong, as the client's author reads it.
    let problem: String
}

/// The head of one HTTP/1.x request (RFC 9112): the request line and the header fields the
/// server acts on, parsed from bytes that end with an empty line. Strict where leniency lets
/// a request mean two things (folded lines, a length beside chunked coding, two different
/// lengths), lenient where it cannot (bare LF line ends, empty lines before the request).
struct HTTPRequestHead: Equatable {
    /// How the body that follows the head is delimited.
    enum BodyFraming: Equatable {
        /// No body.
        case none
        /// `Content-Length` bytes.
        case length(Int)
        /// Chunked transfer coding.
        case chunked
    }

    /// `GET`, `POST`, …, as sent.
    var method: String
    /// The target's path, percent-decoded, without its query.
    var path: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The fields in ``HTTPRequest/collectedHeaders`` that were sent, by lowercase name (the
    /// first of repeated ones).
    var headers: [String: String]
    /// How the body is delimited.
    var framing: BodyFraming
    /// Whether the connection stays open after the response: HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 with `Connection: keep-alive`.
    var keepsAlive: Bool
    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool

    /// The index just past the empty line that ends the head in `bytes`, or nil while it has
    /// not arrived. A caller that looked before, at fewer bytes, passes how many it had as
    /// `known`, and only the bytes since (and the three before them) are looked at again.
    static func end(in bytes: ArraySlice<UInt8>, known: Int = 0) -> Int? {
        var index = bytes.startIndex
        // Empty lines before the request line are ignored (RFC 9112 §2.2).
        while index < bytes.endIndex, bytes[index] == .carriageReturn || bytes[index] == .lineFeed {
            index += 1
        }
        index = max(index, min(bytes.startIndex + known - 3, bytes.endIndex))
        while let lineFeed = bytes[index...].firstIndex(of: .lineFeed) {
            let next = lineFeed + 1
            guard next < bytes.endIndex else { return nil }
            if bytes[next] == .lineFeed { return next + 1 }
            if bytes[next] == .carriageReturn {
                guard next + 1 < bytes.endIndex else { return nil }
                if bytes[next + 1] == .lineFeed { return next + 2 }
            }
            index = next
        }
        return nil
    }

    /// Parses a complete head (as delimited by ``end(in:)``).
    ///
    /// - Throws: ``HTTPRequestError``: 400 for a malformed line or field, 505 for a version
    ///   other than HTTP/1.0 and 1.1, 501 for a transfer coding other than chunked, 417 for an
    ///   expectation other than `100-continue`.
    init(parsing bytes: ArraySlice<UInt8>) throws(HTTPRequestError) {
        var lines = Self.lines(of: bytes)
        guard let requestLine = lines.first else {
            throw HTTPRequestError(status: 400, problem: "no request line")
        }
        lines.removeFirst()
        let parts = requestLine.split(separator: .space, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].allSatisfy(\.isTokenCharacter), !parts[0].isEmpty
        else {
            throw HTTPRequestError(status: 400, problem: "expected METHOD TARGET HTTP/1.x")
        }
        method = String(decoding: parts[0], as: UTF8.self)
        minorVersion = try Self.minorVersion(parts[2])
        path = try Self.path(of: parts[1])
        var fields = HTTPRequestFields()
        for line in lines {
            try fields.add(line)
        }
        headers = fields.collected
        framing = try fields.framing(minorVersion: minorVersion)
        keepsAlive =
            minorVersion == 1
            ? !fields.connection.contains("close")
            : fields.connection.contains("keep-alive")
        expectsContinue = fields.expectsContinue && framing != .none
    }

    /// The lines of a head without their line ends, the empty ones before the request line and
    /// the one that ends it left out.
    private static func lines(of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        for var line in bytes.split(separator: .lineFeed, omittingEmptySubsequences: false) {
            if line.last == .carriageReturn { line = line.dropLast() }
            if line.isEmpty {
                if lines.isEmpty { continue } else { break }
            }
            lines.append(line)
        }
        return lines
    }

    private static func minorVersion(_ version: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        let text = String(decoding: version, as: UTF8.self)
        switch text {
        case "HTTP/1.1": return 1
        case "HTTP/1.0": return 0
        default:
            guard text.hasPrefix("HTTP/"), text.utf8.count == 8 else {
                throw HTTPRequestError(
                    status: 400, problem: "expected HTTP/1.x, got \(text.prefix(16))")
            }
            throw HTTPRequestError(status: 505, problem: "\(text) is not served: HTTP/1.1 is")
        }
    }

    /// The percent-decoded path of an origin-form (`/path?query`) or absolute-form
    /// (`http://host/path`) target.
    private static func path(of target: ArraySlice<UInt8>) throws(HTTPRequestError) -> String {
        guard !target.isEmpty, target.allSatisfy({ $0 > .space && $0 != 0x7f }) else {
            throw HTTPRequestError(status: 400, problem: "the target is empty or has controls")
        }
        var rest = target
        if rest.first != .slash {
            let text = String(decoding: target.prefix(8), as: UTF8.self).lowercased()
            guard text.hasPrefix("http://") || text.hasPrefix("https:/"),
                let scheme = rest.firstIndex(of: .slash)
            else {
                throw HTTPRequestError(status: 400, problem: "expected a target such as /metrics")
            }
            rest = rest[(scheme + 2)...]
            rest = rest.firstIndex(of: .slash).map { rest[$0...] } ?? [.slash]
        }
        if let query = rest.firstIndex(of: .questionMark) { rest = rest[..<query] }
        return String(decoding: percentDecoded(rest), as: UTF8.self)
    }

    /// `bytes` with each `%HH` replaced by its byte; a `%` without two hex digits is kept.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == .percent, index + 2 < bytes.endIndex,
                let high = bytes[index + 1].hexValue, let low = bytes[index + 2].hexValue
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return decoded
    }
}

/// The header fields of a request as they are read, one line at a time.
private struct HTTPRequestFields {
    var collected: [String: String] = [:]
    var contentLength: Int?
    var transferCodings: [String] = []
    var connection: Set<String> = []
    var expectsContinue = false

    private static let collectedNames = Set(HTTPRequest.collectedHeaders.map { $0.lowercased() })

    mutating func add(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) {
        guard let colon = line.firstIndex(of: .colon), colon > line.startIndex,
            line[..<colon].allSatisfy(\.isTokenCharacter)
        else {
            let problem =
                line.first == .space || line.first == .tab
                ? "folded header lines are not accepted" : "expected NAME: VALUE in the headers"
            throw HTTPRequestError(status: 400, problem: problem)
        }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = line[(colon + 1)...].trimmingWhitespace
        guard !value.contains(where: { $0 == .carriageReturn || $0 == 0 }) else {
            throw HTTPRequestError(status: 400, problem: "\(name): control characters")
        }
        let text = String(decoding: value, as: UTF8.self)
        switch name {
        case "content-length":
            guard !value.isEmpty, value.count <= 15, value.allSatisfy(\.isDigit),
                let length = Int(text), contentLength == nil || contentLength == length
            else {
                throw HTTPRequestError(status: 400, problem: "content-length: expected one number")
            }
            contentLength = length
        case "transfer-encoding":
            transferCodings += Self.tokens(text)
        case "connection":
            connection.formUnion(Self.tokens(text))
        case "expect":
            guard text.lowercased() == "100-continue" else {
                throw HTTPRequestError(status: 417, problem: "expect: only 100-continue is met")
            }
            expectsContinue = true
        default:
            break
        }
        if Self.collectedNames.contains(name), collected[name] == nil { collected[name] = text }
    }

    func framing(minorVersion: Int) throws(HTTPRequestError) -> HTTPRequestHead.BodyFraming {
        guard !transferCodings.isEmpty else {
            return contentLength.map { $0 > 0 ? .length($0) : .none } ?? .none
        }
        guard contentLength == nil, minorVersion == 1 else {
            throw HTTPRequestError(
                status: 400,
                problem: "transfer-encoding: not with content-length, nor in HTTP/1.0")
        }
        guard transferCodings == ["chunked"] else {
            throw HTTPRequestError(
                status: 501, problem: "transfer-encoding: only chunked is understood")
        }
        return .chunked
    }

    /// The comma-separated, lowercased tokens of a field's value.
    private static func tokens(_ text: String) -> [String] {
        Array(text.lowercased().utf8)[...].split(separator: .comma).map {
            String(decoding: $0.trimmingWhitespace, as: UTF8.self)
        }
    }
}

extension UInt8 {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0a
    static let carriageReturn: UInt8 = 0x0d
    static let space: UInt8 = 0x20
    static let percent: UInt8 = 0x25
    static let comma: UInt8 = 0x2c
    static let slash: UInt8 = 0x2f
    static let colon: UInt8 = 0x3a
    static let semicolon: UInt8 = 0x3b
    static let questionMark: UInt8 = 0x3f

    /// Whether the byte may appear in a method or a field name (RFC 9110 `tchar`).
    var isTokenCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5a, 0x61...0x7a: true
        case 0x21, 0x23...0x27, 0x2a, 0x2b, 0x2d, 0x2e, 0x5e, 0x5f, 0x60, 0x7c, 0x7e: true
        default: false
        }
    }

    /// Whether the byte is an ASCII digit.
    var isDigit: Bool { (0x30...0x39).contains(self) }

    /// The value of a hexadecimal digit, or nil.
    var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}

extension ArraySlice<UInt8> {
    /// The slice without spaces and tabs at either end.
    var trimmingWhitespace: ArraySlice<UInt8> {
        let isWhitespace = { (byte: UInt8) in byte == .space || byte == .tab }
        guard let first = firstIndex(where: { !isWhitespace($0) }),
            let last = lastIndex(where: { !isWhitespace($0) })
        else { return [] }
        return self[first...last]
    }
}
