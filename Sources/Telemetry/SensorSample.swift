/// One temperature sensor as exported: its identity, reading and limits, in degrees Celsius.
public struct SensorSample: Sendable, Hashable {
    /// The sensor's name, e.g. `coretemp-isa-0000/Package id 0` or `thermal_zone0`.
    public var sensor: String
    /// Where it was read: `hwmon`, `thermal_zone`, `replay`, `model`.
    public var source: String
    /// The temperature, or nil while the sensor is stale (it is then exported as stale, never 0).
    public var celsius: Double?
    /// The high limit `H`, when known.
    public var highCelsius: Double?
    /// The critical limit `C`, when known.
    public var criticalCelsius: Double?

    /// Creates a sample; see the properties for units.
    public init(
        sensor: String, source: String, celsius: Double?, highCelsius: Double? = nil,
        criticalCelsius: Double? = nil
    ) {
        self.sensor = sensor
        self.source = source
        self.celsius = celsius
        self.highCelsius = highCelsius
        self.criticalCelsius = criticalCelsius
    }
}
