import Files
import Foundation
import Governor
import HostService
import MQTTBridge
import Pressure
import TestSupport
import Testing
import Units

@Suite struct MQTTTopicsTests {
    @Test("topics: the state under PREFIX/NODE, discovery under DISCOVERY/device/NODE")
    func topics() throws {
        let topics = try MQTTTopics(prefix: "site/cams", node: "headroom_pi-4")
        #expect(topics.availability == "site/cams/headroom_pi-4/availability")
        #expect(topics.state == "site/cams/headroom_pi-4/state")
        #expect(topics.clients == "site/cams/headroom_pi-4/clients")
        #expect(topics.discovery == "homeassistant/device/headroom_pi-4/config")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
    }

    @Test("what a topic cannot be is refused, naming the option")
    func refused() {
        // Swift takes no noncharacter in a literal.
        let noncharacter = { (value: UInt32) in String(Character(Unicode.Scalar(value)!)) }
        for (prefix, node) in [
            ("a/+/b", "n"), ("#", "n"), ("", "n"), ("a//b", "n"), ("/a", "n"), ("a", "bad node"),
            ("a", ""), ("a", String(repeating: "n", count: 65)), ("a", "ünï"),
            // Brokers drop a client's publishes under "$" and topics with noncharacters.
            ("$SYS/headroom", "n"), ("$share", "n"), ("ha" + noncharacter(0xFDD0), "n"),
            ("a" + noncharacter(0xFFFF), "n"),
        ] {
            #expect(throws: MQTTBridgeError.self, "\(prefix) \(node)") {
                try MQTTTopics(prefix: prefix, node: node)
            }
        }
        #expect(
            throws: MQTTBridgeError.badTopic(
                "--mqtt-node: expected 1 to 64 letters, digits, \"_\" or \"-\", got \"a b\"")
        ) {
            try MQTTTopics(node: "a b")
        }
        #expect(throws: MQTTBridgeError.self) {
            try MQTTTopics(node: "n", discoveryPrefix: "$SYS")
        }
        #expect(throws: MQTTBridgeError.self) {
            try MQTTTopics(node: "n", discoveryPrefix: noncharacter(0xFDD0))
        }
    }

    @Test("a node id from a host name keeps only what Home Assistant takes")
    func nodeID() {
        #expect(MQTTTopics.nodeID(hostName: "pi-4.local") == "headroom_pi-4_local")
        #expect(MQTTTopics.nodeID(hostName: "") == "headroom_host")
        #expect(MQTTTopics.nodeID(hostName: "kamera-ü") == "headroom_kamera-_")
    }
}

/// Readings with a temperature, throttling and a board, as a Raspberry Pi gives them.
enum BridgeReadings {
    static func reading(
        _ level: PressureLevel, celsius: Double? = 61.26, board: BoardSignals? = nil,
        throttled: Bool = false
    ) -> PressureReading {
        var factors: [PressureFactor] = []
        if throttled {
            factors.append(
                PressureFactor(
                    kind: .cpuThrottling, level: .fair, value: 0.5, unit: "ratio",
                    detail: "cpufreq at 50 % of its maximum"))
        }
        let sensors =
            celsius.map {
                [
                    SensorReading(
                        id: "cpu_thermal", source: .thermalZone, label: "cpu", celsius: Celsius($0))
                ]
            } ?? []
        return PressureReading(
            time: instant(0), level: level, factors: factors,
            headroom: HeadroomEstimate(current: 0.734, forecast: .nan, forecastSeconds: 10),
            sustainableShare: Share(fraction: 0.456), simulated: false,
            thermal: celsius == nil ? .none : .measured, sensors: sensors, notes: [],
            board: board)
    }
}

@Suite struct HostStateDocumentTests {
    @Test("the state: rounded for people, null where the host cannot tell, never 0")
    func state() throws {
        let state = HostStateDocument(BridgeReadings.reading(.fair, throttled: true))
        let json = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any])
        #expect(json["level"] as? String == "fair")
        #expect(json["throttled"] as? Bool == true)
        #expect(json["temperature_c"] as? Double == 61.3)
        #expect(json["headroom"] as? Double == 0.73)
        #expect(json["headroom_forecast"] is NSNull)
        #expect(json["under_voltage"] is NSNull, "no board: no supply signal")
        #expect(json["power_w"] is NSNull)
        #expect(json["sustainable_percent"] as? Double == 46)
        #expect((json["factors"] as? [String])?.first?.hasPrefix("cpuThrottling: cpufreq") == true)
        let cold = HostStateDocument(BridgeReadings.reading(.nominal, celsius: nil))
        #expect(cold.temperatureCelsius == nil && cold.headroom == 0.73)
        // Not a number is unknown: null, never "NaN" in a field Home Assistant reads as one.
        var broken = BridgeReadings.reading(.nominal, celsius: .nan)
        broken.sustainableShare = Share(fraction: .infinity)
        let unknown = HostStateDocument(broken)
        #expect(unknown.temperatureCelsius == nil && unknown.sustainablePercent == nil)
        let line = String(decoding: try JSONStyle.line.encode(unknown), as: UTF8.self)
        #expect(!line.contains("NaN") && !line.contains("Infinity"), "\(line)")
    }

    @Test("a Raspberry Pi under-voltage now, from its firmware word")
    func underVoltage() throws {
        let board = BoardSignals(firmware: FirmwareThrottling(word: 0x50005))
        let state = HostStateDocument(BridgeReadings.reading(.serious, board: board))
        #expect(state.underVoltage == true)
        #expect(state.throttled == true, "bit 2: the firmware throttles the ARM")
        let fine = HostStateDocument(
            BridgeReadings.reading(
                .nominal, board: BoardSignals(firmware: FirmwareThrottling(word: 0x50000))))
        #expect(fine.underVoltage == false && fine.throttled == false)
    }
}

@Suite struct HomeAssistantDiscoveryTests {
    /// The discovery payload as JSON, for a host with a temperature and one client.
    func payload(offer: HomeAssistantDiscovery.Offer, clients: [String: ClientStateDocument] = [:])
        throws -> [String: Any]
    {
        let discovery = HomeAssistantDiscovery(
            topics: try MQTTTopics(node: "headroom_cam"), hostName: "cam", version: "0.5.0",
            offer: offer, clients: clients, heartbeat: .seconds(60))
        return try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(discovery)) as? [String: Any])
    }

    @Test(
        "the device payload has Home Assistant's documented keys: dev, o, cmps with p and unique_id"
    )
    func documentedKeys() throws {
        let offer = HomeAssistantDiscovery.Offer(
            HostStateDocument(
                BridgeReadings.reading(
                    .nominal, board: BoardSignals(firmware: FirmwareThrottling(word: 0x0)))))
        let json = try payload(offer: offer)
        let device = try #require(json["dev"] as? [String: Any])
        #expect(device["identifiers"] as? [String] == ["headroom_cam"])
        #expect(device["name"] as? String == "cam (Headroom)")
        #expect((json["o"] as? [String: Any])?["name"] as? String == "headroom")
        #expect(json["availability_topic"] as? String == "headroom/headroom_cam/availability")
        let components = try #require(json["cmps"] as? [String: [String: Any]])
        #expect(
            Set(components.keys) == [
                "level", "throttled", "under_voltage", "temperature", "headroom",
                "headroom_forecast", "sustainable",
            ])
        // Every key is one Home Assistant documents for MQTT sensors and binary sensors.
        let documented: Set<String> = [
            "p", "name", "unique_id", "state_topic", "value_template", "device_class",
            "state_class", "unit_of_measurement", "options", "suggested_display_precision",
            "expire_after", "json_attributes_topic", "json_attributes_template", "icon",
        ]
        for (key, component) in components {
            #expect(Set(component.keys).isSubset(of: documented), "\(key)")
            #expect(component["unique_id"] as? String == "headroom_cam_\(key)")
            #expect(component["expire_after"] as? Int == 180)
            #expect(component["state_topic"] as? String == "headroom/headroom_cam/state")
        }
        let level = try #require(components["level"])
        #expect(level["p"] as? String == "sensor" && level["device_class"] as? String == "enum")
        #expect(
            level["options"] as? [String] == ["nominal", "fair", "serious", "critical", "shutdown"])
        #expect(components["throttled"]?["device_class"] as? String == "heat")
        #expect(components["throttled"]?["p"] as? String == "binary_sensor")
        #expect(components["under_voltage"]?["device_class"] as? String == "problem")
        let temperature = try #require(components["temperature"])
        #expect(temperature["device_class"] as? String == "temperature")
        #expect(temperature["state_class"] as? String == "measurement")
        #expect(temperature["unit_of_measurement"] as? String == "°C")
    }

    @Test("no thermal sensor, no supply signal, no rails: no entity for them")
    func onlyWhatTheHostHas() throws {
        let offer = HomeAssistantDiscovery.Offer(
            HostStateDocument(BridgeReadings.reading(.nominal, celsius: nil)))
        let components = try #require(try payload(offer: offer)["cmps"] as? [String: Any])
        #expect(Set(components.keys) == ["level", "throttled", "sustainable"])
    }

    @Test("one sensor per client, read from the clients topic under its key")
    func clients() throws {
        let offer = HomeAssistantDiscovery.Offer(
            HostStateDocument(BridgeReadings.reading(.nominal, celsius: nil)))
        let json = try payload(offer: offer, clients: ["frigate": try clientState("frigate")])
        let components = try #require(json["cmps"] as? [String: [String: Any]])
        let client = try #require(components["client_frigate"])
        #expect(client["state_topic"] as? String == "headroom/headroom_cam/clients")
        #expect(client["value_template"] as? String == "{{ value_json['frigate'].advised_rate }}")
        #expect(client["unit_of_measurement"] as? String == "fps")
        #expect(client["name"] as? String == "frigate advised rate")
    }

    /// A client's state, registered with a governor.
    func clientState(_ name: String) throws -> ClientStateDocument {
        let governor = HostGovernor(configuration: HostGovernorConfiguration(processorCount: 2))
        let registration = try ClientRegistration.decode(
            Data(
                #"{"name": "\#(name)", "priority": 1, "nominalFrameRate": 5, "minFrameRate": 1, "ladder": [{"name": "full", "cost": 100}]}"#
                    .utf8))
        _ = try governor.register(registration, at: instant(0))
        return ClientStateDocument(try #require(governor.clients.first))
    }
}
