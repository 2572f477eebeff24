import CWakeup

#if canImport(Glibc)
    import Glibc
#endif

/// A sysfs or procfs attribute kept open and re-read with `pread` at offset 0.
///
/// Re-reading an open attribute costs one system call, where `open`/`read`/`close` costs
/// three plus the path lookup; that is what makes sampling many sensors cheap. `pread` does
/// not move a file offset, so one file may be read from several threads. Only regular files
/// are read (every sysfs and procfs attribute is one), opened non-blocking: a FIFO planted in
/// a fixture tree is refused, never waited on. Beyond the ``SensorDescriptorBudget`` a file is
/// not kept open but opened at each read.
public final class SysfsValueFile: SensorAttribute {
    /// The attribute's path.
    public let path: String
    /// The open descriptor, or `nil` when the file is read by path (over the budget).
    private let descriptor: Int32?
    /// Whether the file is a sysfs attribute: reading one that was removed fails (ENODEV), so
    /// there is nothing to look for in ``isReplaced``.
    private let isSysfs: Bool

    /// Opens the attribute at `path` for reading.
    ///
    /// - Throws: ``SensorFault`` from the `open` error (`vanished` for a missing file), or
    ///   `other` for something that is not a regular file.
    public init(path: String) throws(SensorFault) {
        self.path = path
        let descriptor = try Self.openRegular(path)
        isSysfs = headroom_filesystem_type(descriptor) == Self.sysfsMagic
        if SensorDescriptorBudget.take() {
            self.descriptor = descriptor
        } else {
            close(descriptor)
            self.descriptor = nil
        }
    }

    /// Opens `path` non-blocking and checks that it is a regular file.
    private static func openRegular(_ path: String) throws(SensorFault) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if descriptor < 0 { throw SensorFault(errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .other("not a regular file")
        }
        return descriptor
    }

    /// `SYSFS_MAGIC` from `<linux/magic.h>`.
    static let sysfsMagic: Int = 0x6265_6572

    /// The open descriptor, or `nil` when the file is read by path (over the budget).
    var heldDescriptor: Int32? { descriptor }

    /// Whether the file held open was removed (or replaced: removed and created again under
    /// the same path), as a driver reload does to its attributes, or a test to a fixture
    /// tree's files; an open descriptor would keep reading the old one. Free for sysfs
    /// attributes, where a read of a removed one fails; one `fstat` (no path lookup)
    /// elsewhere. Callers check on a cadence, not on every read.
    public var isReplaced: Bool {
        guard !isSysfs, let descriptor else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return true }
        return status.st_nlink == 0
    }

    deinit {
        if let descriptor {
            close(descriptor)
            SensorDescriptorBudget.give()
        }
    }

    /// Reads the whole attribute (up to 4 KiB) from offset 0.
    ///
    /// - Throws: ``SensorFault`` from the `pread` error.
    public func readText() throws(SensorFault) -> String {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) {
            buffer throws(SensorFault) in
            let count = try readBytes(into: buffer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// Reads the attribute as one decimal integer, as hwmon and thermal attributes hold.
    ///
    /// - Throws: ``SensorFault`` for a failed read, or `garbage` when the text is not an integer.
    public func readInteger() throws(SensorFault) -> Int {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) {
            buffer throws(SensorFault) in
            let count = try readBytes(into: buffer)
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<count])
            guard let value = Self.parseInteger(bytes) else {
                throw .garbage(String(decoding: bytes, as: UTF8.self))
            }
            return value
        }
    }

    /// Reads the whole attribute (up to `capacity` bytes) into a stack buffer and hands the
    /// bytes to `body`, without building a `String`.
    ///
    /// - Throws: ``SensorFault`` from the `pread` error, or what `body` throws.
    func withContents<Result>(
        capacity: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(SensorFault) -> Result
    ) throws(SensorFault) -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
            buffer throws(SensorFault) in
            let count = try readBytes(into: buffer)
            return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    private func readBytes(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(SensorFault)
        -> Int
    {
        let descriptor: Int32
        if let open = self.descriptor {
            descriptor = open
        } else {
            descriptor = try Self.openRegular(path)
        }
        defer { if self.descriptor == nil { close(descriptor) } }
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno != EINTR { throw SensorFault(errno: errno) }
        }
    }

    /// Parses `[spaces][-]digits[whitespace]` without allocating; `nil` for anything else.
    static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int(bytes[index] - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            digits += 1
            index += 1
        }
        // A switch, not an array literal's `contains`: that allocated an array on every read.
        trailing: while index < bytes.count {
            switch bytes[index] {
            case 0x0A, 0x20, 0x09, 0x0D, 0x00: index += 1
            default: break trailing
            }
        }
        guard digits > 0, index == bytes.count else { return nil }
        return negative ? -value : value
    }

    /// Reads a small attribute once (open, read, close), trimming the trailing newline.
    ///
    /// - Throws: ``SensorFault`` when the file cannot be opened or read.
    public static func readText(at path: String) throws(SensorFault) -> String {
        let file = try SysfsValueFile(path: path)
        var text = try file.readText()
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }

    /// Reads a small integer attribute once (open, read, close).
    ///
    /// - Throws: ``SensorFault`` when the file cannot be read or holds no integer.
    public static func readInteger(at path: String) throws(SensorFault) -> Int {
        try SysfsValueFile(path: path).readInteger()
    }
}

/// A sensor attribute holding one integer, re-read on every sample.
///
/// Class-bound: a table of open attributes is walked 10 times a second, and a class reference
/// is copied with one retain where an existential box would be copied whole.
public protocol SensorAttribute: AnyObject, Sendable {
    /// Reads the attribute's current integer value.
    ///
    /// - Throws: ``SensorFault`` when the read fails or the text is not an integer.
    func readInteger() throws(SensorFault) -> Int

    /// Whether the attribute's path now names another file than the one being read (it was
    /// removed and recreated), so it must be opened again.
    var isReplaced: Bool { get }
}

extension Celsius {
    /// What a board's temperature sensor can physically report; readings at or beyond either
    /// end are faults, everything inside is real.
    ///
    /// −100 °C is colder than anywhere on Earth (the record is −89 °C), so a reading there is a
    /// broken or idle sensor's placeholder (a Jetson's idle GPU says −256 °C; −273.15 °C is a
    /// common "no value"). 500 °C is far past where a board survives (solder melts near
    /// 220 °C). A reading above the critical limit but inside this range — 200 °C on a
    /// 105 °C part — is real, and escalates to `shutdown`.
    public static let plausibleRange: ClosedRange<Double> = -100...500

    /// The temperature in `millidegrees`; the `notAvailable` fault at or below −100 °C (a
    /// powered-down device's placeholder) and the `outOfRange` fault at or above 500 °C (see
    /// ``plausibleRange``).
    public static func plausible(millidegrees: Int) throws(SensorFault) -> Celsius {
        let celsius = Celsius(millidegrees: millidegrees)
        guard celsius.value > plausibleRange.lowerBound else { throw .notAvailable(celsius.value) }
        guard celsius.value < plausibleRange.upperBound else { throw .outOfRange(celsius.value) }
        return celsius
    }
}
