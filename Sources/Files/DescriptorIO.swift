#if canImport(Glibc)
    import Glibc
#endif

/// Whole writes and copies on file descriptors, retried across signals and short writes.
public enum DescriptorIO {
    /// Writes all of `bytes` to `descriptor`; false (with `errno` set) when it could not.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }

    /// Copies the rest of `source`, from its offset to its end, into `target`; false (with
    /// `errno` set) on failure.
    public static func copyRest(of source: Int32, to target: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { return true }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            guard
                buffer.withUnsafeBytes({
                    writeAll(UnsafeRawBufferPointer(rebasing: $0.prefix(count)), to: target)
                })
            else { return false }
        }
    }
}
