import CLI
import Files
import HostService
import Lifecycle
import Locking
import MQTT
import MQTTBridge
import Telemetry

#if canImport(Glibc)
    import Glibc
#endif

/// `serve --mqtt URL`: the host's state on an MQTT broker with Home Assistant discovery, as a
/// service of `serve`.
public enum MQTTPublishing {
    /// The options.
    public struct Options: OptionGroup {
        /// The declarations.
        public init() {}

        /// `--mqtt URL`.
        public let url = Option<String?>.text(
            "--mqtt", "URL",
            "also publish the state to this MQTT broker (mqtt://HOST[:PORT], mqtts:// for TLS)"
                + " with Home Assistant discovery")
        /// `--mqtt-prefix TOPIC`.
        public let prefix = Option<String?>.text(
            "--mqtt-prefix", "TOPIC", "the state topics' first levels (default headroom)"
        ).within("--mqtt")
        /// `--mqtt-node ID`.
        public let node = Option<String?>.text(
            "--mqtt-node", "ID",
            "this host's id in topics and Home Assistant (default"
                + " headroom_HOSTNAME)"
        ).within("--mqtt")
        /// `--mqtt-discovery-prefix TOPIC`.
        public let discoveryPrefix = Option<String?>.text(
            "--mqtt-discovery-prefix", "TOPIC",
            "Home Assistant's discovery prefix (default homeassistant)"
        ).within("--mqtt")
        /// `--mqtt-credentials FILE`.
        public let credentials = Option<String?>.path(
            "--mqtt-credentials", "FILE",
            "the broker's user name on the first line, password on the second (mode 0600)"
        ).within("--mqtt")
        /// `--mqtt-ca FILE`.
        public let certificateAuthority = Option<String?>.path(
            "--mqtt-ca", "FILE",
            "the CA certificate an mqtts:// broker's is checked against (default: the system's)"
        ).within("--mqtt")
        /// `--mqtt-heartbeat S`.
        public let heartbeat = Option<Duration>.seconds(
            "--mqtt-heartbeat", "S",
            "publish the whole state at least this often; Home Assistant shows it unavailable"
                + " after three without one", in: 5...3600, default: 60
        ).within("--mqtt")
        /// `--frigate FILE`.
        public let frigate = Option<String?>.path(
            "--frigate", "FILE",
            "govern a Frigate NVR through its MQTT API on the same broker: its cameras,"
                + " priority and profiles, heaviest first (docs/home-assistant.md)"
        ).within("--mqtt")
    }

    /// The services `group`'s options ask for: the publisher, and with `--frigate` Frigate's
    /// governance; none without `--mqtt`.
    ///
    /// - Throws: ``UsageError`` for an option that cannot be used (a bad URL or topic, a
    ///   credentials file readable by others, a TLS option libmosquitto refuses, a Frigate
    ///   file that is not one), or an MQTT option given without `--mqtt`.
    public static func services<Command: CommandOptions>(
        _ arguments: Parsed<Command>, _ group: KeyPath<Command, Options>, host: HostService,
        metrics: HeadroomMetrics
    ) throws -> [Service] {
        func value<Value>(_ option: KeyPath<Options, Option<Value>>) -> Value {
            arguments[group.appending(path: option)]
        }
        guard let url = value(\.url) else {
            let refinements = arguments.givenNames.filter {
                $0.hasPrefix("--mqtt-") || $0 == "--frigate"
            }
            if let first = refinements.first {
                throw UsageError(description: "\(first): needs --mqtt URL (the broker)")
            }
            return []
        }
        do {
            let broker = try MQTTBroker(parsing: url)
            let hostName = ProcessFacts.hostName ?? "host"
            let topics = try MQTTTopics(
                prefix: value(\.prefix) ?? "headroom",
                node: value(\.node) ?? MQTTTopics.nodeID(hostName: hostName),
                discoveryPrefix: value(\.discoveryPrefix) ?? "homeassistant")
            if value(\.certificateAuthority) != nil, !broker.usesTLS {
                throw UsageError(description: "--mqtt-ca: needs an mqtts:// broker, got \(url)")
            }
            if let authority = value(\.certificateAuthority),
                !FileSystem.isReadable(authority)
            {
                // libmosquitto would only say "Invalid arguments provided".
                throw UsageError(description: "--mqtt-ca: \(authority): no such readable file")
            }
            let credentials = try value(\.credentials).map(MQTTCredentials.load)
            let frigate = try value(\.frigate).map(FrigateConfiguration.load)
            /// A connection to the broker, saying each new state of it once, on stderr and as
            /// `headroom_mqtt_connected{connection=purpose}`.
            func connection(_ name: String, purpose: String, will: MQTTMessage) throws
                -> MQTTConnection
            {
                // Two hosts of one name (every Raspberry Pi is "raspberrypi") would take each
                // other's broker session: the client id also carries this machine's own.
                let clientID = "\(name)-\(Self.machineSuffix)"
                let connection = try MQTTConnection(
                    broker: broker, clientID: clientID, will: will, credentials: credentials,
                    certificateAuthority: value(\.certificateAuthority))
                let lastStatus = LockedState<String?>("")
                metrics.publishMQTTConnection(purpose, isConnected: false)
                connection.onStatus { status in
                    metrics.publishMQTTConnection(purpose, isConnected: status == nil)
                    let isNew = lastStatus.withLock { last in
                        defer { last = status }
                        return last != status
                    }
                    guard isNew else { return }
                    Console.error(
                        "headroom serve: \(broker) (\(clientID)): \(status ?? "connected")")
                }
                return connection
            }
            let publisher = HostStatePublisher(
                connection: try connection(
                    topics.node, purpose: "state", will: HostStatePublisher.will(for: topics)),
                topics: topics, service: host, hostName: hostName,
                version: headroomVersion, heartbeat: value(\.heartbeat))
            Console.error(
                "headroom serve: publishing to \(broker) under \(topics.prefix)/\(topics.node),"
                    + " discovery on \(topics.discovery)")
            var services = [
                Service("mqtt", ending: .runsUntilCancelled, isOnClock: false) {
                    try await publisher.run()
                }
            ]
            if let frigate {
                let governance = FrigateGovernance(
                    configuration: frigate,
                    connection: try connection(
                        "\(topics.node)_frigate", purpose: "frigate",
                        will: FrigateGovernance.will(for: frigate)),
                    service: host, report: { Console.error("headroom serve: frigate: \($0)") })
                Console.error(
                    "headroom serve: governing Frigate (\(frigate.topicPrefix)/…, cameras"
                        + " \(frigate.cameras.joined(separator: ", "))) through profiles"
                        + " \(frigate.ladder.map(\.name).joined(separator: " → "))")
                services.append(
                    Service("frigate", ending: .runsUntilCancelled, isOnClock: false) {
                        try await governance.run()
                    })
            }
            return services
        } catch let error as MQTTError {
            throw UsageError(description: "--mqtt: \(error)")
        } catch let error as MQTTBridgeError {
            throw UsageError(description: error.description)
        } catch let error as ConfigurationError {
            throw UsageError(description: error.description)
        }
    }

    /// Eight characters of this machine's id (`/etc/machine-id`), or of a random one where it
    /// has none: what tells apart two hosts of one name on a broker.
    private static let machineSuffix: String = {
        let id =
            (try? InputFile.read("/etc/machine-id", limit: 1 << 10))
            .map { String(decoding: $0, as: UTF8.self).trimmingWhitespace() } ?? ""
        return String((id.isEmpty ? ProcessFacts.uniqueName() : id).prefix(8))
    }()
}
