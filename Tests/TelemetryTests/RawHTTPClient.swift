import Glibc

/// A minimal blocking TCP client for talking to the server the way an abusive client would.
struct RawHTTPClient {
    let port: UInt16

    /// Opens a connection to 127.0.0.1:port; the caller closes it.
    func connect() throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError(what: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(
            descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw ClientError(what: "connect", code: errno)
        }
        return descriptor
    }

    /// Sends `request` as is and returns everything the server sends until it closes.
    func exchange(_ request: String) throws -> String {
        let descriptor = try connect()
        defer { close(descriptor) }
        return Self.exchange(request, on: descriptor)
    }

    /// Sends `request` on the open connection `descriptor` and returns everything the server
    /// sends until it closes.
    static func exchange(_ request: String, on descriptor: Int32) -> String {
        let bytes = Array(request.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The server may answer and close before reading an oversized request to its end.
            if sent <= 0 { break }
            offset += sent
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// `GET path` with `Connection: close` and the extra header lines given.
    func get(_ path: String, headers: [String] = []) throws -> String {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return try exchange(
            "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(extra)Connection: close\r\n\r\n")
    }
}

struct ClientError: Error, CustomStringConvertible {
    let what: String
    let code: Int32
    var description: String { "\(what): \(String(cString: strerror(code)))" }
}
