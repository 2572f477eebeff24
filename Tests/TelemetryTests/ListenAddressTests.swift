import Testing

@testable import Telemetry

@Suite struct ListenAddressTests {
    @Test(
        arguments: [
            ("127.0.0.1:9464", "127.0.0.1", 9464, false, true),
            ("localhost:80", "127.0.0.1", 80, false, true),
            ("0.0.0.0:0", "0.0.0.0", 0, false, false),
            ("[::1]:9464", "::1", 9464, true, true),
            ("[::]:1", "::", 1, true, false),
        ] as [(String, String, UInt16, Bool, Bool)])
    func validAddressesParse(
        text: String, host: String, port: UInt16, isIPv6: Bool, isLoopback: Bool
    ) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.isIPv6 == isIPv6)
        #expect(address.isLoopback == isLoopback)
    }

    @Test(arguments: [
        "", "9464", ":9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1",
        "example.com:80", "::1:9464", "[::1]9464", "[::1", "256.0.0.1:80", "[127.0.0.1]:80",
    ])
    func invalidAddressesAreRejected(text: String) {
        #expect(throws: HTTPServerError.self) { try ListenAddress(parsing: text) }
    }

    @Test func errorNamesTheFlag() {
        #expect(throws: HTTPServerError.self) { try ListenAddress(parsing: "nowhere") }
        let error = HTTPServerError.invalidListenAddress("nowhere", expected: "HOST:PORT")
        #expect(error.description.hasPrefix("--listen \"nowhere\""))
    }
}
