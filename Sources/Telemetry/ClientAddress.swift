#if canImport(Glibc)
    import Glibc
#endif

/// The IP address a connection comes from, the key of the per-client connection bound.
///
/// IPv4 addresses are kept in their IPv4-mapped IPv6 form, so a client counts once whether it
/// reaches an IPv4 listener or a dual-stack `[::]` one.
struct ClientAddress: Hashable, Sendable {
    /// The 128-bit address's most significant half.
    let high: UInt64
    /// The 128-bit address's least significant half.
    let low: UInt64

    /// Whether the address is this machine's loopback: 127.0.0.0/8 (IPv4-mapped) or ::1.
    var isLoopback: Bool {
        high == 0 && (low == 1 || (low >> 32 == 0xffff && (low >> 24) & 0xff == 127))
    }

    /// The address in `address`; addresses of another family than IPv4 and IPv6 all map to
    /// one key: a Unix domain socket's clients are one client.
    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            (high, low) = (0, 0)
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
            }
            (high, low) = (0, 0xffff_0000_0000 | UInt64(ipv4))
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
            }
            let word = { (range: Range<Int>) in
                bytes[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            (high, low) = (word(0..<8), word(8..<16))
        default:
            (high, low) = (0, 0)
        }
    }
}
