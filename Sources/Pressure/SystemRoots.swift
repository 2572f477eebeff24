/// Where the kernel's `/sys` and `/proc` are, so tests can point readers at fixture trees.
///
/// `HEADROOM_SYSFS_ROOT` stands for `/sys` and `HEADROOM_PROCFS_ROOT` for `/proc`.
public struct SystemRoots: Hashable, Sendable {
    /// The directory standing for `/sys`.
    public var sysfs: String
    /// The directory standing for `/proc`.
    public var procfs: String

    /// Roots at `sysfs` and `procfs`.
    public init(sysfs: String = "/sys", procfs: String = "/proc") {
        self.sysfs = sysfs
        self.procfs = procfs
    }

    /// The roots named by `HEADROOM_SYSFS_ROOT` and `HEADROOM_PROCFS_ROOT` in `environment`,
    /// defaulting to `/sys` and `/proc`.
    public static func from(environment: [String: String]) -> SystemRoots {
        SystemRoots(
            sysfs: environment["HEADROOM_SYSFS_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/sys",
            procfs: environment["HEADROOM_PROCFS_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/proc"
        )
    }

    /// `/sys/class/thermal` under these roots.
    public var thermalClass: String { sysfs + "/class/thermal" }
    /// `/sys/devices/system/cpu` under these roots.
    public var cpuDevices: String { sysfs + "/devices/system/cpu" }
    /// `/proc/pressure` under these roots.
    public var pressure: String { procfs + "/pressure" }
}
