import Governor
import HostService
import Locking
import MQTT
import Pressure
import Units

/// Publishes the host service's state on MQTT for Home Assistant, as a service of `serve`:
/// availability (`online`, and `offline` as the connection's last will and on a clean stop),
/// the discovery payload, the state and the clients, all retained.
///
/// It follows ``HostService/changes`` and publishes a topic only when its payload changed,
/// and every topic every `heartbeat`; discovery again whenever the connection is made and when
/// Home Assistant says `online` on its status topic. It never blocks sampling or the API (it
/// runs on its own task and libmosquitto's thread) and never queues: while the broker is away
/// nothing is published and, while earlier messages still wait to be written, a change waits
/// until they are, and then the newest state is published — newest wins.
public final class HostStatePublisher: Sendable {
    /// The topics.
    public let topics: MQTTTopics
    private let connection: MQTTConnection
    private let service: HostService
    private let hostName: String
    private let version: String
    private let heartbeat: Duration
    private let published = LockedState(Published())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// What was published last, and what must be published whatever it was.
    private struct Published {
        var payloads: [String: [UInt8]] = [:]
        /// Entities announced and their platforms, to remove those that are gone.
        var components: [String: String] = [:]
        var sendsDiscovery = true
        var refreshesState = true
        /// A change was held back behind the backlog: published when the backlog is written.
        var isHeldBack = false
        var count = 0
    }

    /// A publisher of `service`'s state through `connection` (not yet started: ``run()``
    /// starts it).
    ///
    /// - Parameters:
    ///   - hostName: the device's name in Home Assistant.
    ///   - version: Headroom's version, in the device and origin.
    ///   - heartbeat: every topic is published again at least this often.
    public init(
        connection: MQTTConnection, topics: MQTTTopics, service: HostService, hostName: String,
        version: String, heartbeat: Duration
    ) {
        self.connection = connection
        self.topics = topics
        self.service = service
        self.hostName = hostName
        self.version = version
        self.heartbeat = heartbeat
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The last will the connection must carry: `offline`, retained, on the availability topic.
    public static func will(for topics: MQTTTopics) -> MQTTMessage {
        MQTTMessage(topic: topics.availability, text: "offline", isRetained: true)
    }

    /// How many messages were handed to the broker so far.
    public var publishedCount: Int { published.withLock { $0.count } }

    /// Starts the connection and publishes until cancelled; then says `offline` and
    /// disconnects.
    ///
    /// - Throws: ``MQTT/MQTTError`` when the connection cannot start at all.
    public func run() async throws {
        let wake = wake
        let status = topics.homeAssistantStatus
        connection.onConnect { [published] connection in
            connection.subscribe(status)
            published.withLock { $0.sendsDiscovery = true }
            wake.yield(())
        }
        connection.onMessage { [published] message in
            guard message.topic == status, message.text == "online" else { return }
            published.withLock { $0.sendsDiscovery = true }
            wake.yield(())
        }
        connection.onPublished { [published] in
            let heldBack = published.withLock { published in
                defer { published.isHeldBack = false }
                return published.isHeldBack
            }
            if heldBack { wake.yield(()) }
        }
        try connection.start()
        defer {
            publish(MQTTMessage(topic: topics.availability, text: "offline", isRetained: true))
            connection.stop()
        }
        let changes = service.changes.subscribe(bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in changes { self.publishDue() } }
            group.addTask { for await _ in self.wakes { self.publishDue() } }
            group.addTask {
                let clock = self.service.clock
                var next = clock.now
                while !Task.isCancelled {
                    next = next.advanced(by: self.heartbeat)
                    do { try await clock.sleep(until: next) } catch { return }
                    self.published.withLock { $0.refreshesState = true }
                    self.publishDue()
                }
            }
            // The host service closing ends `changes`: then the others stop too.
            await group.next()
            group.cancelAll()
        }
    }

    /// Publishes what changed, or everything that is due.
    func publishDue() {
        guard connection.isConnected, let reading = service.latestReading else { return }
        let state = HostStateDocument(reading)
        let clients = ClientKeys.assign(service.governor.clients)
        published.withLock { published in
            let due = published.sendsDiscovery || published.refreshesState
            // Newest wins: while earlier messages wait to be written, this state waits too.
            guard due || !connection.hasBacklog else {
                published.isHeldBack = true
                return
            }
            var discovery = HomeAssistantDiscovery(
                topics: topics, hostName: hostName, version: version,
                offer: HomeAssistantDiscovery.Offer(state), clients: clients, heartbeat: heartbeat)
            let current = discovery.components.mapValues(\.platform)
            for (key, platform) in published.components where current[key] == nil {
                discovery.components[key] = .removal(platform: platform)
            }
            let messages = [
                (topics.availability, Array("online".utf8), published.sendsDiscovery),
                (topics.discovery, MQTTPayload.json(discovery), published.sendsDiscovery),
                (topics.state, MQTTPayload.json(state), due),
                (topics.clients, MQTTPayload.json(clients), due),
            ]
            for (topic, payload, forced) in messages
            where forced || published.payloads[topic] != payload {
                guard publish(MQTTMessage(topic: topic, payload: payload, isRetained: true))
                else { return }
                published.payloads[topic] = payload
                published.count += 1
            }
            published.components = current
            published.sendsDiscovery = false
            published.refreshesState = false
        }
    }

    @discardableResult
    private func publish(_ message: MQTTMessage) -> Bool {
        connection.publish(message)
    }
}
