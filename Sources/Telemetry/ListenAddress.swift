#if canImport(Glibc)
    import Glibc
#endif

/// An IP address and TCP port to serve on, parsed from `HOST:PORT` or `[IPv6]:PORT`.
///
/// Only numeric addresses and `localhost` are accepted, so that `serve` never depends on name
/// resolution and never listens more widely than the user wrote.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric host, without brackets (`127.0.0.1`, `::1`, `0.0.0.0`).
    public let host: String
    /// The TCP port; 0 asks the kernel for a free one (see ``HTTPServer/port``).
    public let port: UInt16
    /// Whether `host` is an IPv6 address.
    public let isIPv6: Bool

    /// The default: IPv4 loopback, port 9464.
    public static let defaultLoopback = ListenAddress(host: "127.0.0.1", port: 9464, isIPv6: false)

    private init(host: String, port: UInt16, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Parses `127.0.0.1:9464`, `localhost:9464`, `0.0.0.0:9464` or `[::1]:9464`.
    ///
    /// - Throws: ``HTTPServerError/invalidListenAddress(_:expected:)`` saying what was
    ///   expected.
    public init(parsing text: String) throws(HTTPServerError) {
        let expected = "HOST:PORT with a numeric IPv4 host, localhost or [IPv6], port 0-65535"
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"),
                text[text.index(after: close)...].hasPrefix(":")
            else { throw .invalidListenAddress(text, expected: expected) }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw .invalidListenAddress(text, expected: expected)
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = UInt16(portText), !host.isEmpty else {
            throw .invalidListenAddress(text, expected: expected)
        }
        let isIPv6 = text.hasPrefix("[")
        // An IPv6 host needs its brackets, and brackets hold only an IPv6 host.
        guard host.contains(":") == isIPv6 else {
            throw .invalidListenAddress(text, expected: expected)
        }
        self.init(host: String(host), port: port, isIPv6: isIPv6)
        guard (try? socketAddress()) != nil else {
            throw .invalidListenAddress(text, expected: expected)
        }
    }

    /// `HOST:PORT`, with brackets around an IPv6 host.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether the address is on the loopback interface only.
    public var isLoopback: Bool {
        isIPv6 ? host == "::1" : host.hasPrefix("127.")
    }

    /// The address as a `sockaddr_in` or `sockaddr_in6`, in bytes.
    func socketAddress() throws(HTTPServerError) -> [UInt8] {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                throw .invalidListenAddress(description, expected: "a numeric IPv6 address")
            }
            return withUnsafeBytes(of: address) { Array($0) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .invalidListenAddress(description, expected: "a numeric IPv4 address")
        }
        return withUnsafeBytes(of: address) { Array($0) }
    }
}
