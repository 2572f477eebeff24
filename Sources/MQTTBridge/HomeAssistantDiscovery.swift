import Pressure
import Units

/// Home Assistant's device-based MQTT discovery for the host: one retained payload on
/// `homeassistant/device/NODE/config` naming the device (`dev`), the software (`o`), the shared
/// availability topic and every entity (`cmps`, each with its platform `p` and `unique_id`).
///
/// Entities: the level (an `enum` sensor with the five levels as options and the factors as
/// attributes), throttled (`binary_sensor`, `heat`), under-voltage (`binary_sensor`,
/// `problem`, on a board with a supply signal), the hottest temperature (where the host has
/// thermal sensors), headroom now and forecast, the sustainable share, power (on a board with
/// power rails), and one sensor per registered client with its advised rate (its ladder step
/// and reason as attributes). Every state entity expires (`expire_after`) when no state comes
/// for three heartbeats, so a hung host becomes unavailable even while its connection lives.
public struct HomeAssistantDiscovery: Encodable, Hashable, Sendable {
    /// The device every entity belongs to.
    public struct Device: Encodable, Hashable, Sendable {
        /// Its identifiers.
        public var identifiers: [String]
        /// Its name in Home Assistant.
        public var name: String
        /// Who makes the software that describes it.
        public var manufacturer: String
        /// What it is.
        public var model: String
        /// The software's version.
        public var softwareVersion: String

        enum CodingKeys: String, CodingKey {
            case identifiers, name, manufacturer, model
            case softwareVersion = "sw_version"
        }
    }

    /// Who sent the discovery payload.
    public struct Origin: Encodable, Hashable, Sendable {
        /// The software's name.
        public var name: String
        /// Its version.
        public var softwareVersion: String

        enum CodingKeys: String, CodingKey {
            case name
            case softwareVersion = "sw_version"
        }
    }

    /// One entity; a component that has only its platform removes the entity it named.
    public struct Component: Encodable, Hashable, Sendable {
        /// `sensor` or `binary_sensor`.
        public var platform: String
        /// The entity's name under the device's.
        public var name: String?
        /// Stable across restarts: the node id and the entity's key.
        public var uniqueID: String?
        /// The topic its value is read from.
        public var stateTopic: String?
        /// The template that reads its value from the state document.
        public var valueTemplate: String?
        /// Home Assistant's device class.
        public var deviceClass: String?
        /// `measurement` for numbers that are sampled.
        public var stateClass: String?
        /// The unit.
        public var unit: String?
        /// The values of an `enum` sensor.
        public var options: [String]?
        /// Decimal places shown.
        public var displayPrecision: Int?
        /// Seconds without a state after which the entity is unavailable.
        public var expireAfter: Int?
        /// Where its attributes are read, and the template that picks them.
        public var attributesTopic: String?
        /// The template that picks the attributes.
        public var attributesTemplate: String?
        /// An icon.
        public var icon: String?

        enum CodingKeys: String, CodingKey {
            case platform = "p"
            case name
            case uniqueID = "unique_id"
            case stateTopic = "state_topic"
            case valueTemplate = "value_template"
            case deviceClass = "device_class"
            case stateClass = "state_class"
            case unit = "unit_of_measurement"
            case options
            case displayPrecision = "suggested_display_precision"
            case expireAfter = "expire_after"
            case attributesTopic = "json_attributes_topic"
            case attributesTemplate = "json_attributes_template"
            case icon
        }

        /// The component that removes the entity `platform` had under this key.
        public static func removal(platform: String) -> Component {
            Component(platform: platform)
        }
    }

    /// The device.
    public var device: Device
    /// The origin.
    public var origin: Origin
    /// Where `online` and `offline` are published.
    public var availabilityTopic: String
    /// Every entity by its key.
    public var components: [String: Component]

    enum CodingKeys: String, CodingKey {
        case device = "dev"
        case origin = "o"
        case availabilityTopic = "availability_topic"
        case components = "cmps"
    }

    /// What the host offers: which optional entities it has.
    public struct Offer: Hashable, Sendable {
        /// A temperature sensor.
        public var hasTemperature: Bool
        /// A supply signal (under-voltage).
        public var hasSupplySignal: Bool
        /// Power rails.
        public var hasPower: Bool

        /// What a host with `state`'s readings offers.
        public init(_ state: HostStateDocument) {
            hasTemperature = state.temperatureCelsius != nil
            hasSupplySignal = state.underVoltage != nil
            hasPower = state.powerWatts != nil
        }
    }

    /// The discovery payload for the host at `topics`, with one entity per key of `clients`.
    ///
    /// - Parameters:
    ///   - hostName: the device's name in Home Assistant is `HOST (Headroom)`.
    ///   - version: Headroom's version.
    ///   - heartbeat: how often the state is published at the latest; entities expire after
    ///     three.
    public init(
        topics: MQTTTopics, hostName: String, version: String, offer: Offer,
        clients: [String: ClientStateDocument], heartbeat: Duration
    ) {
        device = Device(
            identifiers: [topics.node], name: "\(hostName) (Headroom)", manufacturer: "Headroom",
            model: "camera host pressure", softwareVersion: version)
        origin = Origin(name: "headroom", softwareVersion: version)
        availabilityTopic = topics.availability
        let expiry = Int((heartbeat * 3).seconds.rounded(.up))
        var all: [String: Component] = [:]
        /// Adds the entity `key`, read from `topic` by `template`, refined by `refine`.
        func add(
            _ key: String, _ platform: String, _ name: String, _ template: String,
            topic: String = topics.state, _ refine: (inout Component) -> Void
        ) {
            var component = Component(
                platform: platform, name: name, uniqueID: "\(topics.node)_\(key)",
                stateTopic: topic, valueTemplate: template, expireAfter: expiry)
            refine(&component)
            all[key] = component
        }
        add("level", "sensor", "Pressure level", "{{ value_json.level }}") {
            $0.deviceClass = "enum"
            $0.options = PressureLevel.allCases.map(\.name)
            $0.attributesTopic = topics.state
            $0.attributesTemplate =
                "{{ {'factors': value_json.factors, 'simulated': value_json.simulated} | tojson }}"
            $0.icon = "mdi:thermometer-alert"
        }
        add(
            "throttled", "binary_sensor", "Throttled",
            "{{ 'ON' if value_json.throttled else 'OFF' }}"
        ) {
            $0.deviceClass = "heat"
        }
        if offer.hasSupplySignal {
            add(
                "under_voltage", "binary_sensor", "Under-voltage",
                "{{ 'ON' if value_json.under_voltage else 'OFF' }}"
            ) { $0.deviceClass = "problem" }
        }
        if offer.hasTemperature {
            add("temperature", "sensor", "Hottest temperature", "{{ value_json.temperature_c }}") {
                $0.deviceClass = "temperature"
                $0.stateClass = "measurement"
                $0.unit = "°C"
                $0.displayPrecision = 1
            }
            for (key, name) in [
                ("headroom", "Thermal headroom"),
                ("headroom_forecast", "Thermal headroom forecast"),
            ] {
                add(key, "sensor", name, "{{ value_json.\(key) }}") {
                    $0.stateClass = "measurement"
                    $0.displayPrecision = 2
                    $0.icon = "mdi:gauge"
                }
            }
        }
        add("sustainable", "sensor", "Sustainable share", "{{ value_json.sustainable_percent }}") {
            $0.stateClass = "measurement"
            $0.unit = "%"
            $0.icon = "mdi:speedometer"
        }
        if offer.hasPower {
            add("power", "sensor", "Board power", "{{ value_json.power_w }}") {
                $0.deviceClass = "power"
                $0.stateClass = "measurement"
                $0.unit = "W"
            }
        }
        for (key, client) in clients {
            add(
                "client_\(key)", "sensor", "\(client.name) advised rate",
                "{{ value_json['\(key)'].advised_rate }}", topic: topics.clients
            ) {
                $0.stateClass = "measurement"
                $0.unit = "fps"
                $0.attributesTopic = topics.clients
                $0.attributesTemplate = "{{ value_json['\(key)'] | tojson }}"
                $0.icon = "mdi:camera-timer"
            }
        }
        components = all
    }
}
