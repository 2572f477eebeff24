#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension String {
    /// `value` as C's `printf` writes it for `format`, a format of exactly one conversion of a
    /// `double` (`%.2f`, `%+.1f%%`, `%.9f`, `%.2g`): the C library's digits and rounding of ties,
    /// in the C locale (Headroom never sets another). Foundation's `String(format:)` without
    /// Foundation's internationalisation data.
    public init(printf format: String, _ value: Double) {
        var buffer = [CChar](repeating: 0, count: 32)
        while true {
            let capacity = buffer.count
            let length = Int(withVaList([value]) { vsnprintf(&buffer, capacity, format, $0) })
            if length < capacity {
                let bytes = buffer[..<Swift.max(0, length)].map { UInt8(bitPattern: $0) }
                self.init(decoding: bytes, as: UTF8.self)
                return
            }
            buffer = [CChar](repeating: 0, count: length + 1)
        }
    }
}
