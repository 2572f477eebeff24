import Glibc
import Locking
import TestSupport
import Testing

@testable import Telemetry

/// HTTP/1.1 on a real loopback socket against a handler that echoes what it was given:
/// keep-alive and pipelining, HEAD, HTTP/1.0, chunked bodies, 100-continue, and streams that
/// wait, wake, end, and end when their reader leaves.
@Suite(.serialized) struct HTTPConnectionTests {
    /// Echoes `METHOD PATH BODY`; `/stream` answers with the test's stream source.
    private struct EchoHandler: HTTPRequestHandler {
        let stream: TestStream

        func respond(to request: HTTPRequest) -> HTTPAnswer {
            if request.path == "/stream" {
                return .stream(HTTPStreamResponse(contentType: "text/event-stream", source: stream))
            }
            let body = String(decoding: request.body, as: UTF8.self)
            return .response(
                HTTPResponse(
                    status: 200, contentType: "text/plain",
                    body: "\(request.method) \(request.path) \(body)"))
        }
    }

    /// A stream the test feeds: `push` queues text and wakes the reader; `finish` ends it.
    final class TestStream: HTTPStreamSource {
        private struct State {
            var queued: [UInt8] = []
            var isFinished = false
            var wake: (@Sendable () -> Void)?
            var closes = 0
        }
        private let state = LockedState(State())

        func push(_ text: String, finishing: Bool = false) {
            let wake = state.withLock { state in
                state.queued += Array(text.utf8)
                state.isFinished = finishing
                defer { state.wake = nil }
                return state.wake
            }
            wake?()
        }

        var closes: Int { state.withLock { $0.closes } }

        func read(into buffer: UnsafeMutableRawBufferPointer, wake: @escaping @Sendable () -> Void)
            -> HTTPStreamRead
        {
            state.withLock { state in
                guard !state.queued.isEmpty else {
                    if state.isFinished { return .end }
                    state.wake = wake
                    return .wait
                }
                let count = min(buffer.count, state.queued.count)
                buffer.copyBytes(from: state.queued[..<count])
                state.queued.removeFirst(count)
                return .bytes(count)
            }
        }

        func close() {
            state.withLock { $0.closes += 1 }
        }
    }

    private func started(idleTimeout: Int = 5) throws -> (HTTPServer, RawHTTPClient, TestStream) {
        let stream = TestStream()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                listen: try ListenAddress(parsing: "127.0.0.1:0"),
                idleTimeoutSeconds: idleTimeout),
            handler: EchoHandler(stream: stream))
        try server.start()
        return (server, RawHTTPClient(port: server.port), stream)
    }

    @Test("pipelined requests on one connection are answered in order, then it closes as asked")
    func pipelining() throws {
        let (server, client, _) = try started()
        defer { server.stop() }
        let answer = try client.exchange(
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyz"
                + "GET /c HTTP/1.1\r\nConnection: close\r\n\r\n")
        let bodies = ["GET /a ", "POST /b xyz", "GET /c "]
        var rest = Substring(answer)
        for body in bodies {
            let range = try #require(rest.range(of: "\r\n\r\n" + body))
            rest = rest[range.upperBound...]
        }
        #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
        #expect(answer.contains("Content-Length: 11\r\n"))
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.contains("Date: "))
    }

    @Test("HEAD announces the length and sends no body")
    func head() throws {
        let (server, client, _) = try started()
        defer { server.stop() }
        let answer = try client.exchange("HEAD /x HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.contains("Content-Length: 8\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n"))
    }

    @Test("HTTP/1.0 is answered and closed unless it asks to keep alive; after 1.1 is 505")
    func versions() throws {
        let (server, client, _) = try started()
        defer { server.stop() }
        let old = try client.exchange("GET /old HTTP/1.0\r\n\r\n")
        #expect(old.hasPrefix("HTTP/1.1 200") && old.hasSuffix("GET /old "))
        let kept = try client.exchange(
            "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n")
        #expect(kept.contains("Connection: keep-alive\r\n\r\nGET /a "))
        #expect(kept.hasSuffix("Connection: close\r\n\r\nGET /b "))
        #expect(try client.exchange("GET / HTTP/3.0\r\n\r\n").hasPrefix("HTTP/1.1 505"))
    }

    @Test("a chunked body reaches the handler whole; 100-continue is sent before it is read")
    func chunkedAndContinue() throws {
        let (server, client, _) = try started()
        defer { server.stop() }
        let chunked = try client.exchange(
            "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n")
        #expect(chunked.hasSuffix("POST /c abcde"))
        let descriptor = try client.connect()
        defer { close(descriptor) }
        RawHTTPClient.send(
            "POST /e HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n"
                + "Connection: close\r\n\r\n", on: descriptor)
        #expect(
            RawHTTPClient.read(until: "\r\n\r\n", from: descriptor)
                == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(RawHTTPClient.exchange("ok", on: descriptor).hasSuffix("POST /e ok"))
    }

    @Test("a body over the limit is 413 and the answer is read before the connection ends")
    func bodyOverTheLimit() throws {
        let (server, client, _) = try started()
        defer { server.stop() }
        let body = String(repeating: "z", count: 200_000)
        let answer = try client.exchange(
            "POST /big HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        #expect(answer.hasPrefix("HTTP/1.1 413"))
        #expect(answer.contains("Connection: close"))
    }

    @Test("a stream waits, carries each push as a chunk at once, ends with the last chunk")
    func streamWaitsAndEnds() throws {
        let (server, client, stream) = try started(idleTimeout: 1)
        defer { server.stop() }
        let descriptor = try client.connect()
        defer { close(descriptor) }
        RawHTTPClient.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n", on: descriptor)
        stream.push("first\n")
        let head = RawHTTPClient.read(until: "first\n\r\n", from: descriptor)
        #expect(head.contains("Transfer-Encoding: chunked\r\n"))
        #expect(head.hasSuffix("\r\n\r\n6\r\nfirst\n\r\n"))
        // Waiting longer than the idle timeout does not close a stream.
        sleep(2)
        stream.push("second\n", finishing: true)
        #expect(
            RawHTTPClient.read(until: "0\r\n\r\n", from: descriptor) == "7\r\nsecond\n\r\n0\r\n\r\n"
        )
        #expect(stream.closes == 1)
        // The connection goes on to its next request.
        #expect(
            RawHTTPClient.exchange("GET /n HTTP/1.1\r\nConnection: close\r\n\r\n", on: descriptor)
                .hasSuffix("GET /n "))
    }

    @Test("a reader that hangs up ends its stream once")
    func readerLeaves() throws {
        let (server, client, stream) = try started()
        defer { server.stop() }
        let descriptor = try client.connect()
        RawHTTPClient.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n", on: descriptor)
        _ = RawHTTPClient.read(until: "chunked\r\n\r\n", from: descriptor)
        close(descriptor)
        var waited = 0
        while stream.closes == 0 && waited < 3000 {
            usleep(10_000)
            waited += 1
        }
        #expect(stream.closes == 1)
    }
}
