import Capture
import Foundation
import Governor
import HostServer
import HostService
import Locking
import Pressure
import Telemetry
import TestSupport
import Testing
import Units

/// The host server's phases on real loopback sockets: bound before anything is announced (a
/// taken port fails there), serving while its group runs, and stopping gracefully — the
/// stopping hook and the end of the event streams while the servers still answer, the
/// servers last.
struct HostServerTests {
    /// A server of a fresh service on a free loopback port.
    static func server() throws -> HostServer {
        let metrics = try HeadroomMetrics()
        let service = HostService(
            configuration: HostGovernorConfiguration(processorCount: 2), clock: ManualClock(),
            catalog: ProfileCatalog(calibratedDirectory: nil), metrics: metrics)
        return HostServer(
            service: service, metrics: metrics, exported: ExportedPressure(metrics: metrics),
            listeners: [HTTPServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0"))])
    }

    /// The status line of `GET path` on `port`, or nil when nothing answers.
    static func status(_ path: String, port: UInt16) -> String? {
        let answer = try? RawHTTPClient(port: port).exchange(
            "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return answer?.split(separator: "\r\n").first.map(String.init)
    }

    @Test("bound first: a taken port fails at bind; the servers answer until the group has stopped")
    func phases() async throws {
        let server = try Self.server()
        let port = try server.bind()
        #expect(Self.status("/healthz", port: port) == "HTTP/1.1 200 OK")
        // A second server on the same port fails before it could announce anything.
        let metrics = try HeadroomMetrics()
        let taken = HostServer(
            service: server.service, metrics: metrics,
            exported: ExportedPressure(metrics: metrics),
            listeners: [
                HTTPServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:\(port)"))
            ])
        #expect(throws: HTTPServerError.self) { try taken.bind() }

        // While the group runs, an event stream is open; at the stopping hook the servers
        // still answer, and the streams end after it.
        let atStopping = LockedState<String?>(nil)
        let running = Task {
            try await server.run(
                alongside: [],
                stopping: { atStopping.withLock { $0 = Self.status("/healthz", port: port) } })
        }
        let stream = try RawHTTPClient(port: port).connect()
        defer { close(stream) }
        RawHTTPClient.send(
            "GET /v1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n", on: stream)
        #expect(RawHTTPClient.read(until: "\r\n\r\n", from: stream).hasPrefix("HTTP/1.1 200"))
        #expect(await waitUntil { server.service.events.readerCount == 1 })
        running.cancel()
        try await running.value
        #expect(atStopping.withLock { $0 } == "HTTP/1.1 200 OK")
        #expect(server.service.events.readerCount == 0)
        #expect(Self.status("/healthz", port: port) == nil, "the servers stopped last")
    }
}
