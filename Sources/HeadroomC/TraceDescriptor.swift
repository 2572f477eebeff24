import LaunchTiming
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// `HEADROOM_TRACE_FD`, when the program runs under `headroom launch measure`: events go there
/// as JSON lines (one `write` each, at most 4 KiB, so lines of several threads never mix).
/// Read once; a variable naming anything but an open pipe is ignored, so a stale value can
/// never make the library write into somebody's file.
enum TraceDescriptor {
    /// The descriptor, or -1 when the program is not measured.
    static let number: Int32 = {
        guard let text = getenv(TracedLaunch.descriptorVariable),
            let number = Int32(String(cString: text)), number >= 0
        else { return -1 }
        var status = stat()
        guard fstat(number, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return -1 }
        return number
    }()

    /// Writes `{"ph":"B","name":"…","ts":µs}` for `name` now; false when the write failed.
    static func write(_ phase: UInt8, _ name: UnsafePointer<CChar>, descriptor: Int32) -> Bool {
        let instant = MonotonicClock.now()
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TraceLineBuffer.lineLimit) {
            line in
            var length = 0
            func append(_ byte: UInt8) {
                line[length] = byte
                length += 1
            }
            func append(_ text: StaticString) {
                text.withUTF8Buffer { for byte in $0 { append(byte) } }
            }
            append("{\"ph\":\"")
            append(phase)
            append("\",\"name\":\"")
            // The name, JSON-escaped, cut to leave room for the rest of the line.
            var cursor = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
            while cursor.pointee != 0 && length < TraceLineBuffer.lineLimit - 64 {
                let byte = cursor.pointee
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    append(UInt8(ascii: "\\"))
                    append(byte)
                case 0..<0x20:
                    append("\\u00")
                    append(hexDigit(byte >> 4))
                    append(hexDigit(byte & 0xF))
                default: append(byte)
                }
                cursor += 1
            }
            append("\",\"ts\":")
            var microseconds = instant.nanoseconds / 1000
            var digits: (UInt64, Int) = (1, 1)
            while digits.0 * 10 <= microseconds {
                digits.0 *= 10
                digits.1 += 1
            }
            for _ in 0..<digits.1 {
                append(UInt8(ascii: "0") + UInt8(microseconds / digits.0))
                microseconds %= digits.0
                digits.0 /= 10
            }
            append("}\n")
            var written = 0
            while written < length {
                let count = Glibc.write(descriptor, line.baseAddress! + written, length - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
