import Foundation
import Glibc
import HostService
import Telemetry
import TestSupport
import Testing
import Units

/// The service behind a real HTTP server: bodies, the event stream over a socket,
/// the Unix socket, and systemd's notify socket.
@Suite(.serialized) struct ServiceServerTests {
    static func server(_ fixture: ServiceFixture, socketPath: String? = nil) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                listen: try ListenAddress(parsing: "127.0.0.1:0"), socketPath: socketPath),
            handler: fixture.routes)
        try server.start()
        return server
    }

    @Test("a registration over TCP, and a body over 64 KiB is 413")
    func bodies() throws {
        let fixture = try ServiceFixture()
        let server = try Self.server(fixture)
        defer { server.stop() }
        let client = RawHTTPClient(port: server.port)
        let created = try client.request("POST", "/v1/clients", body: ServiceFixture.registration)
        #expect(created.hasPrefix("HTTP/1.1 201"))
        #expect(created.contains("\"ladderName\" : \"full\""))
        let huge = "{\"name\": \"" + String(repeating: "x", count: 70_000) + "\"}"
        #expect(try client.request("POST", "/v1/clients", body: huge).hasPrefix("HTTP/1.1 413"))
        let chunked = try client.exchange(
            "POST /v1/clients HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n11170\r\n" + String(repeating: "y", count: 70_000)
                + "\r\n0\r\n\r\n")
        #expect(chunked.hasPrefix("HTTP/1.1 413"))
        #expect(try client.get("/v1/clients").hasPrefix("HTTP/1.1 200"))
    }

    @Test("an event stream over a socket waits, then carries the next event at once")
    func eventStreamOverSocket() throws {
        let fixture = try ServiceFixture()
        let server = try Self.server(fixture)
        defer { server.stop() }
        let client = RawHTTPClient(port: server.port)
        let descriptor = try client.connect()
        defer { close(descriptor) }
        RawHTTPClient.send(
            "GET /v1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
            on: descriptor)
        let head = RawHTTPClient.read(until: "headroom events after 0", from: descriptor)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.contains("text/event-stream"))
        fixture.service.consume(fixture.reading(.serious, share: 0.5))
        let event = RawHTTPClient.read(until: "\n\n", from: descriptor)
        #expect(
            event.contains("id: 1\r\nevent: pressure") || event.contains("id: 1\nevent: pressure"))
        // Other requests are answered while the stream waits.
        #expect(try client.get("/v1/pressure").hasPrefix("HTTP/1.1 200"))
        #expect(fixture.service.events.readerCount == 1)
    }

    @Test("stopping the server ends waiting event streams")
    func stopEndsStreams() throws {
        let fixture = try ServiceFixture()
        let server = try Self.server(fixture)
        let descriptor = try RawHTTPClient(port: server.port).connect()
        defer { close(descriptor) }
        RawHTTPClient.send("GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n", on: descriptor)
        _ = RawHTTPClient.read(until: "headroom events", from: descriptor)
        server.stop()
        let rest = RawHTTPClient.read(until: "never sent", from: descriptor)
        #expect(!rest.contains("never sent"))
        #expect(fixture.service.events.readerCount == 0)
    }

    @Test("bound beyond loopback without a token, this machine's own requests may change state")
    func loopbackPeersOnAWideListener() throws {
        let fixture = try ServiceFixture()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(listen: try ListenAddress(parsing: "0.0.0.0:0")),
            handler: fixture.routes)
        try server.start()
        defer { server.stop() }
        let created = try RawHTTPClient(port: server.port).request(
            "POST", "/v1/clients", body: ServiceFixture.registration)
        #expect(created.hasPrefix("HTTP/1.1 201"), "\(created.prefix(200))")
    }

    @Test("event readers holding every slot of their address never lock out a request")
    func readersNeverLockOut() throws {
        let fixture = try ServiceFixture()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                listen: try ListenAddress(parsing: "127.0.0.1:0"), perClientConnectionLimit: 4),
            handler: fixture.routes)
        try server.start()
        defer { server.stop() }
        let client = RawHTTPClient(port: server.port)
        var readers: [Int32] = []
        defer { for reader in readers { close(reader) } }
        for _ in 0..<4 {
            let descriptor = try client.connect()
            readers.append(descriptor)
            RawHTTPClient.send(
                "GET /v1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
                on: descriptor)
            _ = RawHTTPClient.read(until: "headroom events after", from: descriptor)
        }
        #expect(fixture.service.events.readerCount == 4)
        // Every slot of loopback is a waiting reader: a read, a scrape and a registration
        // are answered all the same, each in the place of the oldest reader.
        #expect(try client.get("/v1/pressure").hasPrefix("HTTP/1.1 "))
        #expect(try client.get("/metrics").hasPrefix("HTTP/1.1 200"))
        let created = try client.request("POST", "/v1/clients", body: ServiceFixture.registration)
        #expect(created.hasPrefix("HTTP/1.1 201"))
        // The oldest reader was ended, and may resume.
        let ended = RawHTTPClient.read(until: "never sent", from: readers[0])
        #expect(!ended.contains("never sent"))
    }

    @Test("the Unix socket: mode 0660, served, removed on stop; a stale one is replaced")
    func unixSocket() throws {
        let path =
            NSTemporaryDirectory()
            + "headroom-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let fixture = try ServiceFixture()
        for _ in 0..<2 {
            let server = try Self.server(fixture, socketPath: path)
            var status = stat()
            #expect(stat(path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o660)
            #expect(status.st_mode & S_IFMT == S_IFSOCK)
            let client = RawHTTPClient(socketPath: path)
            let created = try client.request(
                "POST", "/v1/clients", body: ServiceFixture.registration)
            #expect(created.hasPrefix("HTTP/1.1 201"))
            #expect(throws: HTTPServerError.self) { try Self.server(fixture, socketPath: path) }
            server.stop()
            #expect(access(path, F_OK) != 0)
        }
        // A stale socket, bound by a process that died without removing it, is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(stale)
        #expect(bound == 0 && access(path, F_OK) == 0)
        try Self.server(fixture, socketPath: path).stop()
        // A server whose socket file was removed and taken by another instance leaves the
        // other's socket when it stops.
        let first = try Self.server(fixture, socketPath: path)
        unlink(path)
        let second = try Self.server(fixture, socketPath: path)
        first.stop()
        #expect(access(path, F_OK) == 0, "the second server's socket was removed")
        let answer = try RawHTTPClient(socketPath: path).get("/v1/clients")
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        second.stop()
        #expect(access(path, F_OK) != 0)
        // A file in the way is not replaced.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        defer { unlink(path) }
        #expect(throws: HTTPServerError.self) { try Self.server(fixture, socketPath: path) }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test("systemd's notify protocol: READY=1 and WATCHDOG=1 as datagrams on NOTIFY_SOCKET")
    func notifySocket() throws {
        let path = NSTemporaryDirectory() + "notify-\(getpid()).sock"
        unlink(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let notifier = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000"])
        #expect(notifier.watchdogInterval == .seconds(10))
        #expect(notifier.ready(status: "serving on 127.0.0.1:9464"))
        #expect(notifier.watchdog())
        var buffer = [UInt8](repeating: 0, count: 256)
        let first = recv(descriptor, &buffer, buffer.count, 0)
        #expect(
            String(decoding: buffer[..<max(0, first)], as: UTF8.self)
                == "READY=1\nSTATUS=serving on 127.0.0.1:9464")
        let second = recv(descriptor, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer[..<max(0, second)], as: UTF8.self) == "WATCHDOG=1")

        let absent = SystemdNotifier(environment: [:])
        #expect(!absent.ready(status: "x"))
        #expect(absent.watchdogInterval == nil)
        let otherProcess = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"])
        #expect(otherProcess.watchdogInterval == nil)
    }
}
