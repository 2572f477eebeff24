#if canImport(Glibc)
    import Glibc
#endif

/// Where an MQTT broker listens: `mqtt://HOST[:PORT]` (1883 by default) or `mqtts://` for TLS
/// (8883 by default).
public struct MQTTBroker: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// Whether the connection uses TLS.
    public var usesTLS: Bool

    /// A broker at `host:port`.
    public init(host: String, port: Int = 1883, usesTLS: Bool = false) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// The broker `url` names: a host name, an IPv4 address or an IPv6 address in brackets,
    /// and a port; nothing else.
    ///
    /// - Throws: ``MQTTError/badURL(_:)`` saying what was expected. A user name or password in
    ///   the URL is refused without echoing it (credentials go in a file, never on a command
    ///   line that `ps` and the journal show).
    public init(parsing url: String) throws(MQTTError) {
        let schemes = ["mqtt://": (false, 1883), "mqtts://": (true, 8883)]
        let shown = Self.shown(url)
        guard let (scheme, (tls, defaultPort)) = schemes.first(where: { url.hasPrefix($0.key) })
        else {
            throw .badURL("expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], got \"\(shown)\"")
        }
        let rest = url.dropFirst(scheme.count)
        if rest.contains("@") {
            throw .badURL(
                "a user name or password in the broker URL is refused (ps and the journal would"
                    + " show it): put them in --mqtt-credentials FILE")
        }
        if rest.contains(where: { "/?#".contains($0) }) {
            throw .badURL(
                "expected nothing after HOST[:PORT] (no path, query or fragment) in \"\(shown)\"")
        }
        var host = String(rest)
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw .badURL("expected \"]\" after the IPv6 address in \"\(shown)\"")
            }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            guard Self.isIPv6(host), after.isEmpty || after.hasPrefix(":") else {
                throw .badURL(
                    "expected an IPv6 address in brackets, [ADDRESS][:PORT], in \"\(shown)\"")
            }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw .badURL(
                    "an IPv6 address goes in brackets (mqtt://[::1]:1883), got \"\(shown)\"")
            }
            host = String(parts[0])
            portText = parts.count == 2 ? parts[1] : nil
            guard Self.isHostName(host) else {
                throw .badURL(
                    "expected a host name (letters, digits, \"-\", \"_\" and dots, at most 253"
                        + " characters) or an address in \"\(shown)\"")
            }
        }
        var port = defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw .badURL("expected a port from 1 to 65535 in \"\(shown)\"")
            }
            port = number
        }
        self.init(host: host, port: port, usesTLS: tls)
    }

    /// Whether `text` is a host name or an IPv4 address: dot-separated labels of 1 to 63
    /// letters, digits, `-` and `_` (container names have them), at most 253 characters.
    static func isHostName(_ text: String) -> Bool {
        (1...253).contains(text.utf8.count)
            && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                (1...63).contains(label.utf8.count)
                    && label.utf8.allSatisfy { byte in
                        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    }
            }
    }

    /// Whether `text` is an IPv6 address.
    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return text.utf8.count <= 45 && inet_pton(AF_INET6, text, &address) == 1
    }

    /// At most 64 characters of what was given, for an error to echo.
    private static func shown(_ url: String) -> String {
        url.count > 64 ? url.prefix(64) + "…" : url
    }

    /// `mqtt://host:port`.
    public var description: String {
        "\(usesTLS ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// What went wrong with MQTT.
public enum MQTTError: Error, Equatable, CustomStringConvertible {
    /// A broker URL that is not one.
    case badURL(String)
    /// libmosquitto refused a call: its own words.
    case library(String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .badURL(let problem): problem
        case .library(let problem): problem
        }
    }
}
