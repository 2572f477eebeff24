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

    /// The broker `url` names.
    ///
    /// - Throws: ``MQTTError/badURL(_:)`` saying what was expected.
    public init(parsing url: String) throws(MQTTError) {
        let schemes = ["mqtt://": (false, 1883), "mqtts://": (true, 8883)]
        guard let (scheme, (tls, defaultPort)) = schemes.first(where: { url.hasPrefix($0.key) })
        else {
            throw .badURL("expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], got \"\(url)\"")
        }
        let rest = url.dropFirst(scheme.count)
        var host = String(rest)
        var port = defaultPort
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            host = String(rest[..<colon])
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number)
            else {
                throw .badURL("expected a port from 1 to 65535 in \"\(url)\"")
            }
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else {
            throw .badURL("expected a host in \"\(url)\"")
        }
        self.init(host: host, port: port, usesTLS: tls)
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
