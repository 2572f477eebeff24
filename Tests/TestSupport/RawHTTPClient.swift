import Glibc

/// A minimal blocking HTTP client over TCP on loopback or a Unix domain socket, for talking to
/// a server the way an abusive client (or a plain script) would.
public struct RawHTTPClient: Sendable {
    /// The loopback TCP port, when not over a Unix socket.
    public let port: UInt16
    /// The Unix domain socket's path, when over one.
    public let socketPath: String?

    /// A client of 127.0.0.1:`port`.
    public init(port: UInt16) {
        self.port = port
        self.socketPath = nil
    }

    /// A client of the Unix domain socket at `socketPath`.
    public init(socketPath: String) {
        self.port = 0
        self.socketPath = socketPath
    }

    /// Opens a connection (a receive times out at ``hangBound``); the caller closes it.
    public func connect() throws -> Int32 {
        let family = socketPath == nil ? AF_INET : AF_UNIX
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError(what: "socket", code: errno) }
        var timeout = timeval(tv_sec: Int(hangBound.components.seconds), tv_usec: 0)
        setsockopt(
            descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if let socketPath {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8) }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw ClientError(what: "connect", code: errno)
        }
        return descriptor
    }

    /// Sends `request` as is and returns everything the server sends until it closes.
    public func exchange(_ request: String) throws -> String {
        let descriptor = try connect()
        defer { close(descriptor) }
        return Self.exchange(request, on: descriptor)
    }

    /// Sends `request` on the open connection `descriptor` and returns everything the server
    /// sends until it closes.
    public static func exchange(_ request: String, on descriptor: Int32) -> String {
        send(request, on: descriptor)
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// Sends all of `request` (or as much as the server reads before closing).
    public static func send(_ request: String, on descriptor: Int32) {
        let bytes = Array(request.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The server may answer and close before reading an oversized request to its end.
            if sent <= 0 { break }
            offset += sent
        }
    }

    /// Reads from `descriptor` until what arrived contains `marker` (or the connection ends or
    /// times out); returns all of it.
    public static func read(until marker: String, from descriptor: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// `GET path` with `Connection: close` and the extra header lines given.
    public func get(_ path: String, headers: [String] = []) throws -> String {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return try exchange(
            "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(extra)Connection: close\r\n\r\n")
    }

    /// `method path` with a body, `Connection: close` and the extra header lines given.
    public func request(
        _ method: String, _ path: String, body: String = "", headers: [String] = []
    ) throws -> String {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return try exchange(
            "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\(extra)Content-Length:"
                + " \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }
}

/// A system call of the client failed.
public struct ClientError: Error, CustomStringConvertible {
    /// The call.
    public let what: String
    /// Its `errno`.
    public let code: Int32
    /// `connect: Connection refused`.
    public var description: String { "\(what): \(String(cString: strerror(code)))" }
}
