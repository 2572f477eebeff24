/// A temperature input that libsensors discovered, with its limits at discovery time.
public struct DiscoveredSensor: Hashable, Sendable {
    /// `chip/feature`, such as `coretemp-isa-0000/temp1`.
    public var id: SensorID
    /// The label from the chip or from the libsensors configuration.
    public var label: String
    /// The sysfs file holding the input in millidegrees, such as `…/hwmon0/temp1_input`.
    public var inputPath: String
    /// The high limit (`tempN_max`), when the chip has one.
    public var high: Celsius?
    /// The critical limit (`tempN_crit`), when the chip has one.
    public var critical: Celsius?
    /// The emergency limit (`tempN_emergency`), when the chip has one.
    public var emergency: Celsius?
    /// The hysteresis under `tempN_max` (`max - max_hyst`), when the chip declares one.
    public var hysteresis: Celsius?
    /// The alarm flag at discovery, when the chip has one.
    public var alarm: Bool?
    /// Whether the libsensors configuration computes this input (a `compute` statement), so
    /// its raw sysfs value cannot be used and it must be read through libsensors.
    public var isComputed: Bool
    /// The libsensors generation this sensor belongs to; see ``Libsensors/readValues(_:)``.
    public var generation: Int
    /// The chip's index among the detected chips of that generation.
    public var chipIndex: Int
    /// The subfeature number of the input, for `sensors_get_value`.
    public var inputNumber: Int32
}
