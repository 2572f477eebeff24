/// Where a sensor's value comes from; the `source` field of `status --json`.
public enum SensorSourceKind: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// lm-sensors' libsensors (hwmon chips).
    case libsensors
    /// A kernel thermal zone (`/sys/class/thermal/thermal_zone*`).
    case thermalZone = "thermal_zone"
    /// CPU frequency scaling (`/sys/devices/system/cpu/cpufreq`).
    case cpufreq
    /// Pressure stall information (`/proc/pressure`).
    case psi
    /// hwmon attributes read directly from sysfs: power rails and supply voltages.
    case hwmon
    /// A board's firmware (a Raspberry Pi's throttling word).
    case firmware
    /// Device frequency scaling (`/sys/class/devfreq`): a GPU's load and clock.
    case devfreq
    /// A recorded trace being replayed: simulated.
    case replay
    /// The first-order thermal model: simulated.
    case model

    /// Whether values from this source are simulated rather than measured on this host now.
    public var isSimulated: Bool { self == .replay || self == .model }

    /// The JSON name, such as `thermal_zone`.
    public var description: String { rawValue }
}
