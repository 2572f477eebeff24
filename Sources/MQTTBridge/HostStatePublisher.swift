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
/// It follows ``HostService/changes`` (the level, advice, clients: published at once) and
/// looks at the drifting values once every ``pace``, and publishes a topic only when its
/// payload changed, and every topic every `heartbeat`; discovery again whenever the connection
/// is made and when Home Assistant says `online` on its status topic (at most once every
/// ``ResendLimit/interval``). It never blocks sampling or the API (it
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
        var state: HostStateDocument?
        var clients: [String: ClientStateDocument]?
        /// What the discovery payload last published was made from.
        var discovered: DiscoveryBasis?
        /// Entities announced and their platforms, to remove those that are gone.
        var components: [String: String] = [:]
        /// The keys the registered clients go by.
        var keys = ClientKeys()
        /// Discovery is asked for: by a connection made, or by Home Assistant saying `online`.
        var sendsDiscovery = true
        /// When discovery may go again.
        var discoveryLimit = ResendLimit()
        var refreshesState = true
        /// A change was held back behind unwritten messages: published once they are written.
        var isHeldBack = false
        var count = 0
    }

    /// What a discovery payload is made from: the host's optional entities and the clients'
    /// keys and names.
    struct DiscoveryBasis: Hashable {
        var offer: HomeAssistantDiscovery.Offer
        var clients: [String: String]
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

    /// How often values that drift with every sample (temperatures, headroom) are looked at:
    /// Home Assistant needs no more, and a 10 Hz observer wakes the publisher once a second.
    public static let pace = Duration.seconds(1)

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
            published.withLock { published in
                published.sendsDiscovery = true
                published.discoveryLimit.reset()
            }
            wake.yield(())
        }
        connection.onMessage { [published] message in
            guard message.topic == status, message.text == "online" else { return }
            published.withLock { $0.sendsDiscovery = true }
            wake.yield(())
        }
        connection.onPublished { [published, connection] in
            guard connection.unwrittenCount == 0 else { return }
            let resumes = published.withLock { published in
                defer { published.isHeldBack = false }
                return published.isHeldBack
            }
            if resumes { wake.yield(()) }
        }
        try connection.start()
        defer {
            connection.publish(
                MQTTMessage(topic: topics.availability, text: "offline", isRetained: true))
            connection.stop()
        }
        let changes = service.changes.subscribe(bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            // Whoever notices something publishes it, one at a time (``publishDue()``): a
            // change, the connection's news, the pace.
            group.addTask { for await _ in changes { self.publishDue() } }
            group.addTask { for await _ in self.wakes { self.publishDue() } }
            group.addTask { await self.keepPace() }
            // The host service closing ends `changes`: then the others stop too.
            await group.next()
            group.cancelAll()
        }
    }

    /// The values that drift (temperatures, headroom) looked at once a ``pace``, the whole
    /// state every heartbeat. On a clock a thread can wait on (real time), a thread of its own
    /// waits and publishes: one wake-up a second, with no timer thread or task woken; on
    /// another clock (a test's), a task sleeps on it.
    private func keepPace() async {
        let clock = service.clock
        let beats = max(1, Int((heartbeat / Self.pace).rounded()))
        let beat = { @Sendable (tick: Int) in
            if tick % beats == 0 { self.published.withLock { $0.refreshesState = true } }
            self.publishDue()
        }
        guard let threadClock = clock as? any ThreadWaitingClock else {
            var next = clock.now
            var tick = 0
            while !Task.isCancelled {
                next = next.advanced(by: Self.pace)
                do { try await clock.sleep(until: next) } catch { return }
                tick += 1
                beat(tick)
            }
            return
        }
        let waitSet = WaitSet()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                DetachedThread.start(name: "headroom-mqtt") {
                    var next = threadClock.now
                    var tick = 0
                    while true {
                        next = next.advanced(by: Self.pace)
                        guard threadClock.wait(until: next, on: waitSet) == .deadline else { break }
                        tick += 1
                        beat(tick)
                    }
                    ended.resume()
                }
            }
        } onCancel: {
            waitSet.stop()
        }
    }

    /// Publishes what changed, or everything that is due. What was published is compared as
    /// values, so that a sample that changes nothing a person sees costs no encoding. One
    /// call at a time, under the lock of what was published (two at once could send an older
    /// state after a newer one): the state it reads is the newest when it publishes it.
    func publishDue() {
        published.withLock { publishDue(&$0) }
    }

    private func publishDue(_ published: inout Published) {
        guard connection.isConnected, let reading = service.latestReading else { return }
        let state = HostStateDocument(reading)
        let clients = published.keys.assign(service.clients)
        let basis = DiscoveryBasis(
            offer: HomeAssistantDiscovery.Offer(state), clients: clients.mapValues(\.name))
        let now = service.clock.now
        // Newest wins: while earlier messages wait to be written, this state waits too,
        // discovery and the heartbeat as well — a broker that stops reading holds nothing
        // more of ours.
        guard connection.unwrittenCount == 0 else {
            published.isHeldBack = true
            return
        }
        // Discovery asked for again too soon waits for its interval (the pace's wake).
        let sendsDiscovery =
            published.sendsDiscovery && published.discoveryLimit.allows(at: now)
        let due = sendsDiscovery || published.refreshesState
        func send(_ topic: String, _ payload: [UInt8]) -> Bool {
            guard
                connection.publish(
                    MQTTMessage(topic: topic, payload: payload, isRetained: true))
            else { return false }
            published.count += 1
            return true
        }
        if sendsDiscovery {
            guard send(topics.availability, Array("online".utf8)) else { return }
        }
        if sendsDiscovery || published.discovered != basis {
            var discovery = HomeAssistantDiscovery(
                topics: topics, hostName: hostName, version: version, offer: basis.offer,
                clients: clients, heartbeat: heartbeat)
            let current = discovery.components.mapValues(\.platform)
            for (key, platform) in published.components where current[key] == nil {
                discovery.components[key] = .removal(platform: platform)
            }
            guard send(topics.discovery, MQTTPayload.json(discovery)) else { return }
            published.discovered = basis
            published.components = current
        }
        if due || published.state != state {
            guard send(topics.state, MQTTPayload.json(state)) else { return }
            published.state = state
        }
        if due || published.clients != clients {
            guard send(topics.clients, MQTTPayload.json(clients)) else { return }
            published.clients = clients
        }
        if sendsDiscovery { published.sendsDiscovery = false }
        published.refreshesState = false
    }
}
