/// The reserve's state, as `headroom storage status` prints it: what `AVProVideoStorage`
/// answers with `isSupported`, `initialCapacity`, `remainingCapacity` and `busyReasons`.
public struct StorageStatus: Codable, Equatable, Sendable {
    /// The reserve's directory.
    public var path: String
    /// Whether a reserve can live there.
    public var isSupported: Bool
    /// Why not, when it cannot.
    public var unsupportedReason: String?
    /// The filesystem's type: `ext4`, `tmpfs`, `xfs`, … or its magic number in hex.
    public var filesystem: String
    /// The size the reserve is kept at (`allocate`); `replenish` restores it.
    public var capacityBytes: ByteCount
    /// What is preallocated and free for recordings now.
    public var remainingBytes: ByteCount
    /// The size of each segment.
    public var segmentBytes: ByteCount
    /// What the reserve is busy with, in declaration order; empty when idle.
    public var busyReasons: [BusyReason]
    /// Recordings writing into the reserve now.
    public var recordings: Int
    /// Free space on the filesystem outside the reserve (for an unprivileged user).
    public var freeBytes: ByteCount
    /// The destination asked about, if any.
    public var destination: String?
    /// Whether that destination is on the reserve's filesystem: then a finished recording is
    /// renamed into place; otherwise it is copied, which takes time and space.
    public var destinationIsSameFilesystem: Bool?
    /// The sustained write rate `headroom calibrate` measured into the reserve (kept in the
    /// host profile; the caller fills it in), or `nil` when never measured.
    public var sustainedWriteRate: DataRate?

    enum CodingKeys: String, CodingKey {
        case path
        case isSupported = "supported"
        case unsupportedReason, filesystem, capacityBytes, remainingBytes, segmentBytes
        case busyReasons, recordings, freeBytes, destination, destinationIsSameFilesystem
        case sustainedWriteRate
    }

    /// Whether the reserve has less than it should: recordings used some, or an allocation
    /// was interrupted.
    public var needsReplenishing: Bool { remainingBytes < capacityBytes }
}

/// Names of the filesystems a reserve is likely to meet, by `statfs` magic number.
enum FilesystemName {
    private static let names: [Int: String] = [
        0xEF53: "ext4", 0x0102_1994: "tmpfs", 0x5846_5342: "xfs", 0x9123_683E: "btrfs",
        0xF2F5_2010: "f2fs", 0x6969: "nfs", 0x794C_7630: "overlayfs", 0x4D44: "vfat",
        0x2011_BAB0: "exfat", 0x6573_5546: "fuse", 0x2FC1_2FC1: "zfs", 0x5346_544E: "ntfs",
    ]

    /// The name of the filesystem with `magic`, or the number in hex.
    static func of(magic: Int) -> String {
        names[magic] ?? "0x" + String(magic, radix: 16)
    }
}
