import Foundation
import Governor
import MQTTBridge
import Pressure
import TestSupport
import Testing
import Units

/// docs/home-assistant.md shows the exact payloads: these tests make them from the code and
/// compare, so the page cannot drift from what is published.
@Suite struct DocumentedPayloadTests {
    /// The JSON block after `<!-- payload: NAME -->` in docs/home-assistant.md.
    func documented(_ name: String) throws -> String {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/home-assistant.md").standardized
        let text = try String(contentsOf: page, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- payload: \(name) -->"), "no \(name) block")
        let rest = text[marker.upperBound...]
        let start = try #require(rest.range(of: "```json\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    /// `value` as the page shows it: pretty, keys sorted.
    func shown(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// The page's example: a host named `cam` with a temperature sensor, at `serious`, and one
    /// client, `frigate`.
    func example() throws -> (HostStateDocument, [String: ClientStateDocument]) {
        let reading = BridgeReadings.reading(.serious, celsius: 81.46, throttled: true)
        let governor = HostGovernor(configuration: HostGovernorConfiguration(processorCount: 4))
        let registration = try ClientRegistration.decode(
            Data(
                #"{"name": "frigate", "priority": 3, "nominalFrameRate": 5, "minFrameRate": 2, "ladder": [{"name": "full", "cost": 100}, {"name": "low", "cost": 40}]}"#
                    .utf8))
        _ = try governor.register(registration, at: instant(0))
        governor.update(level: .serious, sustainableShare: Share(fraction: 0.05), at: instant(1))
        var client = ClientStateDocument(try #require(governor.clients.first))
        client.id = "3f9c2a41d07b5e18"
        return (HostStateDocument(reading), ["frigate": client])
    }

    @Test("the discovery payload in docs/home-assistant.md is the one published")
    func discovery() throws {
        let (state, clients) = try example()
        let discovery = HomeAssistantDiscovery(
            topics: try MQTTTopics(node: "headroom_cam"), hostName: "cam", version: "0.5.0",
            offer: HomeAssistantDiscovery.Offer(state), clients: clients, heartbeat: .seconds(60))
        let actual = try shown(discovery)
        let expected = try documented("discovery")
        if actual != expected {
            try? actual.write(toFile: "/tmp/discovery.json", atomically: true, encoding: .utf8)
        }
        #expect(actual == expected, "the code publishes /tmp/discovery.json")
    }

    @Test("the state and clients payloads in docs/home-assistant.md are the ones published")
    func state() throws {
        let (state, clients) = try example()
        for (name, actual) in [("state", try shown(state)), ("clients", try shown(clients))] {
            let expected = try documented(name)
            if actual != expected {
                try? actual.write(toFile: "/tmp/\(name).json", atomically: true, encoding: .utf8)
            }
            #expect(actual == expected, "the code publishes /tmp/\(name).json")
        }
    }
}
