import Files
import Units

/// An integrated GPU's load and clock from devfreq (a Jetson's `17000000.ga10b`).
public struct GPUActivity: Hashable, Sendable {
    /// The devfreq device, such as `17000000.ga10b`.
    public var device: String
    /// Busy share of the last sampling window, 0…1 (the driver's `load`, per mille); `nil`
    /// where the driver has no load file.
    public var load: Share?
    /// The current clock (`cur_freq`), hertz.
    public var hertz: Double?
    /// The highest clock allowed now (`max_freq`), hertz.
    public var maximumHertz: Double?
    /// Why it could not be read; `nil` when it was.
    public var fault: SensorFault?

    /// A GPU's activity; give a `fault` when it could not be read.
    public init(
        device: String, load: Share? = nil, hertz: Double? = nil, maximumHertz: Double? = nil,
        fault: SensorFault? = nil
    ) {
        self.device = device
        self.load = load
        self.hertz = hertz
        self.maximumHertz = maximumHertz
        self.fault = fault
    }
}

extension GPUActivity: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case device, load, hertz, maximumHertz, fault
    }

    /// Decodes the trace / `status --json` form; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(String.self, forKey: .device)
        load = try container.decodeIfPresent(Share.self, forKey: .load)
        hertz = try container.decodeIfPresent(Double.self, forKey: .hertz)
        maximumHertz = try container.decodeIfPresent(Double.self, forKey: .maximumHertz)
        fault = try container.decodeIfPresent(String.self, forKey: .fault).map(SensorFault.other)
    }

    /// Encodes the known values (a stale one's reason as `fault`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device, forKey: .device)
        try container.encodeIfPresent(load, forKey: .load)
        try container.encodeIfPresent(hertz, forKey: .hertz)
        try container.encodeIfPresent(maximumHertz, forKey: .maximumHertz)
        try container.encodeIfPresent(fault?.description, forKey: .fault)
    }
}
