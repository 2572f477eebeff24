import Capture
import Foundation
import Governor
import HostService
import MQTT
import Pressure
import TestSupport
import Testing
import Units

@testable import MQTTBridge

/// A host service on a manual clock publishing through a real mosquitto, and a subscriber that
/// sees everything under `#`.
struct PublishedHost {
    let broker: MosquittoBroker
    let clock = ManualClock(start: 100)
    let service: HostService
    let publisher: HostStatePublisher
    let topics: MQTTTopics
    let inbox = Inbox()
    let subscriber: MQTTConnection

    init() throws {
        broker = try MosquittoBroker()
        service = HostService(
            configuration: HostGovernorConfiguration(processorCount: 2), clock: clock,
            catalog: ProfileCatalog(calibratedDirectory: nil))
        topics = try MQTTTopics(node: "headroom_test")
        let connection = try MQTTConnection(
            broker: broker.broker, clientID: "headroom-test",
            will: HostStatePublisher.will(for: topics))
        publisher = HostStatePublisher(
            connection: connection, topics: topics, service: service, hostName: "test",
            version: "0.5.0", heartbeat: .seconds(60))
        subscriber = try MQTTConnection(broker: broker.broker, clientID: "home-assistant")
        subscriber.onConnect { $0.subscribe("#") }
        subscriber.onMessage { [inbox] in inbox.add($0) }
        try subscriber.start()
    }

    /// The newest message on `topic` as a JSON object that `matches`, within 10 s.
    func json(on topic: String, where matches: @escaping ([String: Any]) -> Bool = { _ in true })
        async -> [String: Any]?
    {
        let message = await inbox.first(on: topic) { message in
            (try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
                .map(matches) ?? false
        }
        return message.flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any]
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)))
struct HostStatePublisherTests {
    @Test(
        "through a real broker: discovery, availability and state retained; the level to critical; clients come and go"
    )
    func publishes() async throws {
        let host = try PublishedHost()
        defer { host.subscriber.stop() }
        host.service.consume(BridgeReadings.reading(.nominal))
        let running = Task { try await host.publisher.run() }
        let discovery = await host.json(on: host.topics.discovery)
        #expect((discovery?["cmps"] as? [String: Any])?["level"] != nil)
        #expect(await host.inbox.first(on: host.topics.availability)?.text == "online")
        #expect(await host.json(on: host.topics.state)?["level"] as? String == "nominal")

        for level in [PressureLevel.fair, .serious, .critical] {
            host.clock.advance(by: .seconds(5))
            host.service.consume(
                BridgeReadings.reading(level, celsius: 70 + Double(level.rawValue)))
        }
        let critical = await host.json(on: host.topics.state) {
            $0["level"] as? String == "critical"
        }
        #expect(critical?["temperature_c"] as? Double == 73)

        let registration = try ClientRegistration.decode(
            Data(
                #"{"name": "Front door", "priority": 1, "nominalFrameRate": 5, "minFrameRate": 1, "ladder": [{"name": "full", "cost": 100}]}"#
                    .utf8))
        let (id, _) = try host.service.register(registration)
        let withClient = await host.json(on: host.topics.discovery) {
            ($0["cmps"] as? [String: Any])?["client_front_door"] != nil
        }
        #expect(withClient != nil)
        let clients = await host.json(on: host.topics.clients) { $0["front_door"] != nil }
        #expect((clients?["front_door"] as? [String: Any])?["id"] as? String == id.rawValue)

        #expect(host.service.leave(id))
        let removal = await host.json(on: host.topics.discovery) {
            (($0["cmps"] as? [String: Any])?["client_front_door"] as? [String: String])
                == ["p": "sensor"]
        }
        #expect(removal != nil, "a client that left is removed with its platform alone")

        // Home Assistant restarting says online: discovery again.
        let sent = host.inbox.all(on: host.topics.discovery).count
        host.subscriber.publish(MQTTMessage(topic: "homeassistant/status", text: "online"))
        #expect(await waitUntil { host.inbox.all(on: host.topics.discovery).count > sent })

        // Everything is retained: a subscriber that comes later (Home Assistant starting) gets it.
        let late = Inbox()
        let lateSubscriber = try MQTTConnection(broker: host.broker.broker, clientID: "late")
        lateSubscriber.onConnect { $0.subscribe("headroom/#") }
        lateSubscriber.onMessage { late.add($0) }
        try lateSubscriber.start()
        defer { lateSubscriber.stop() }
        for topic in [host.topics.availability, host.topics.state, host.topics.clients] {
            #expect(await late.first(on: topic)?.isRetained == true, "\(topic)")
        }

        running.cancel()
        try await running.value
        let offline = await late.first(on: host.topics.availability) { $0.text == "offline" }
        #expect(offline != nil, "a clean stop says offline")
    }

    @Test("a flood of online from Home Assistant is answered once an interval, newest wins")
    func onlineFloodIsLimited() async throws {
        let host = try PublishedHost()
        defer { host.subscriber.stop() }
        host.service.consume(BridgeReadings.reading(.nominal))
        let running = Task { try await host.publisher.run() }
        #expect(await host.inbox.first(on: host.topics.discovery) != nil)
        let status = host.topics.homeAssistantStatus
        for _ in 0..<1000 { host.subscriber.publish(MQTTMessage(topic: status, text: "online")) }
        // The broker has them all: the publisher (subscribed too) is hearing them.
        #expect(await waitUntil { host.inbox.all(on: status).count == 1000 })
        // The manual clock stands still: no discovery again within the interval (unlimited,
        // every online answered was a discovery payload to every subscriber).
        host.clock.advance(by: ResendLimit.interval)
        #expect(await waitUntil { host.inbox.all(on: host.topics.discovery).count >= 2 })
        #expect(host.inbox.all(on: host.topics.discovery).count == 2)
        running.cancel()
        try await running.value
    }

    @Test("the heartbeat publishes the state again though nothing changed")
    func heartbeat() async throws {
        let host = try PublishedHost()
        defer { host.subscriber.stop() }
        host.service.consume(BridgeReadings.reading(.nominal))
        let running = Task { try await host.publisher.run() }
        defer { running.cancel() }
        #expect(await host.inbox.first(on: host.topics.state) != nil)
        // The same reading again: nothing new is published.
        host.service.consume(BridgeReadings.reading(.nominal))
        let before = host.inbox.all(on: host.topics.state).count
        host.clock.advance(by: .seconds(61))
        #expect(await waitUntil { host.inbox.all(on: host.topics.state).count == before + 1 })
    }
}
