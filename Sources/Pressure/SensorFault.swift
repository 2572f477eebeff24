#if canImport(Glibc)
    import Glibc
#endif

/// Why a sensor could not give a value; such a sensor is *stale*, never read as 0 °C.
public enum SensorFault: Error, Hashable, Sendable, CustomStringConvertible {
    /// The driver has no data now (`ENODATA`).
    case noData
    /// The device did not answer (`EIO`).
    case ioError
    /// The driver rejected the read (`EINVAL`).
    case invalidArgument
    /// The sensor's file disappeared (hot-unplug, `ENODEV`/`ENOENT`).
    case vanished
    /// Another `errno` from opening or reading the file.
    case systemError(errno: Int32)
    /// The file held text that is not a number.
    case garbage(String)
    /// The value is above what the sensor can report (for a temperature, ≥ 500 °C:
    /// `Celsius.plausibleRange`).
    case outOfRange(Double)
    /// The driver reports a placeholder instead of a value (a temperature ≤ −100 °C, such as a
    /// Jetson's idle GPU at −256 °C): the device is idle or powered down. Not a failure, and
    /// not a reading.
    case notAvailable(Double)
    /// The device behind the file is not there or not powered (`EAGAIN`): a Jetson Orin
    /// Nano's `cv0`–`cv2` zones, for accelerators that SKU does not have, answer so forever.
    case offline
    /// A source-specific reason, such as "libsensors: cannot read".
    case other(String)

    /// The fault for an `errno` returned by `open` or `pread`.
    public init(errno code: Int32) {
        switch code {
        case ENODATA: self = .noData
        case EIO: self = .ioError
        case EINVAL: self = .invalidArgument
        case ENODEV, ENOENT, ENXIO: self = .vanished
        case EAGAIN: self = .offline
        default: self = .systemError(errno: code)
        }
    }

    /// A short human reason, such as `no data (ENODATA)`.
    public var description: String {
        switch self {
        case .noData: "no data (ENODATA)"
        case .ioError: "I/O error (EIO)"
        case .invalidArgument: "invalid argument (EINVAL)"
        case .vanished: "vanished"
        case .systemError(let code): "read failed: \(String(cString: strerror(code)))"
        case .garbage(let text): "not a number: \(text.debugDescription)"
        case .outOfRange(let value): "out of range: \(value)"
        case .notAvailable(let value): "not available (reads \(value) °C: idle or powered down)"
        case .offline: "offline (EAGAIN): no powered device behind it"
        case .other(let reason): reason
        }
    }

    /// Whether the sensor gives no value by design — its device is powered down
    /// (``notAvailable(_:)``) or absent (``offline``) — rather than failing: it is listed
    /// without a value, but it is not stale and raises no stale-sensor alert.
    public var isNotAvailable: Bool {
        switch self {
        case .notAvailable, .offline: true
        default: false
        }
    }
}
