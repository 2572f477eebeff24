import Glibc
import Testing

@testable import Telemetry

@Suite struct ClientAddressTests {
    private func address(ipv4 text: String) -> ClientAddress {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(text)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
        }
    }

    private func address(ipv6 text: String) -> ClientAddress {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        _ = inet_pton(AF_INET6, text, &address.sin6_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
        }
    }

    @Test func anIPv4ClientIsOneClientOnIPv4AndDualStackListeners() {
        #expect(address(ipv4: "192.0.2.7") == address(ipv6: "::ffff:192.0.2.7"))
        #expect(address(ipv4: "192.0.2.7") != address(ipv4: "192.0.2.8"))
        #expect(address(ipv6: "2001:db8::1") != address(ipv6: "2001:db8::2"))
        #expect(address(ipv6: "2001:db8::1") != address(ipv6: "2001:db9::1"))
    }

    @Test func loopbackIs127Slash8AndColonColonOneOnly() {
        for loopback in [
            address(ipv4: "127.0.0.1"), address(ipv4: "127.1.2.3"),
            address(ipv6: "::1"), address(ipv6: "::ffff:127.0.0.1"),
        ] {
            #expect(loopback.isLoopback)
        }
        for other in [
            address(ipv4: "128.0.0.1"), address(ipv4: "10.0.0.1"),
            address(ipv4: "0.0.0.0"), address(ipv6: "::2"), address(ipv6: "fe80::1"),
            address(ipv6: "::127.0.0.1"),
        ] {
            #expect(!other.isLoopback)
        }
    }
}
