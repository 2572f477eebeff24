import Testing

@testable import Telemetry

/// The request head as the server reads it: what it takes, and what it refuses with which
/// status.
struct HTTPRequestHeadTests {
    private func parse(_ text: String) throws(HTTPRequestError) -> HTTPRequestHead {
        let bytes = Array(text.utf8)[...]
        guard let end = HTTPRequestHead.end(in: bytes) else {
            throw HTTPRequestError(status: 0, problem: "incomplete")
        }
        return try HTTPRequestHead(parsing: bytes[..<end])
    }

    private func status(_ text: String) -> Int? {
        do throws(HTTPRequestError) {
            _ = try parse(text)
            return nil
        } catch {
            return error.status
        }
    }

    @Test("the end of a head: CRLF or bare LF, after empty lines; nil until it arrives")
    func endOfHead() {
        let find = { (text: String) in HTTPRequestHead.end(in: Array(text.utf8)[...]) }
        #expect(find("GET / HTTP/1.1\r\nHost: x\r\n\r\nnext") == 27)
        #expect(find("\r\n\r\nGET / HTTP/1.1\n\n") == 20)
        #expect(find("GET / HTTP/1.1\r\nHost: x\r\n") == nil)
        #expect(find("GET / HTTP/1.1\r\nHost: x\r\n\r") == nil)
        #expect(find("") == nil)
        // Looking again from what was seen finds an end that spans the old and new bytes.
        let head = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...]
        for seen in 0...head.count {
            #expect(HTTPRequestHead.end(in: head, known: seen) == head.count)
        }
    }

    @Test("method, decoded path without its query, version, the collected headers")
    func requestLineAndFields() throws {
        let head = try parse(
            "GET /v1/clients/a%20b?x=%41 HTTP/1.1\r\nHost: x\r\nAUTHORIZATION:  Bearer t \r\n"
                + "Accept: text/event-stream\r\nAccept: later\r\nX-Other: y\r\n\r\n")
        #expect(head.method == "GET")
        #expect(head.path == "/v1/clients/a b")
        #expect(head.minorVersion == 1)
        #expect(head.headers == ["authorization": "Bearer t", "accept": "text/event-stream"])
        #expect(head.framing == .none)
        #expect(head.keepsAlive)
        #expect(!head.expectsContinue)
    }

    @Test("an absolute-form target gives its path; a lone % is kept")
    func absoluteForm() throws {
        #expect(try parse("GET http://host:9464/metrics?a HTTP/1.1\r\n\r\n").path == "/metrics")
        #expect(try parse("GET http://host HTTP/1.1\r\n\r\n").path == "/")
        #expect(try parse("GET /a%2 HTTP/1.1\r\n\r\n").path == "/a%2")
    }

    @Test("keep-alive: HTTP/1.1 unless close, HTTP/1.0 only when asked")
    func keepAlive() throws {
        #expect(try !parse("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n").keepsAlive)
        #expect(try !parse("GET / HTTP/1.0\r\n\r\n").keepsAlive)
        #expect(try parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keepsAlive)
        #expect(try !parse("GET / HTTP/1.1\r\nConnection: upgrade, close\r\n\r\n").keepsAlive)
    }

    @Test("body framing: length, chunked, none for zero; 100-continue only with a body")
    func framing() throws {
        #expect(try parse("POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n").framing == .length(12))
        #expect(try parse("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").framing == .none)
        let chunked = try parse(
            "POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\nExpect: 100-continue\r\n\r\n")
        #expect(chunked.framing == .chunked)
        #expect(chunked.expectsContinue)
        #expect(try !parse("GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n").expectsContinue)
        #expect(
            try parse("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n").framing
                == .length(5))
    }

    @Test(
        "refused with the status that says why",
        arguments: [
            ("NONSENSE\r\n\r\n", 400),
            ("GET  / HTTP/1.1\r\n\r\n", 400),
            ("G(T / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
            ("GET / HTTX/1.1\r\n\r\n", 400),
            ("GET metrics HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nName : value\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
            ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
            ("POST / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n", 417),
        ])
    func refused(head: String, expected: Int) {
        #expect(status(head) == expected)
    }
}

/// Request bodies read as they arrive, in any pieces.
struct HTTPBodyReaderTests {
    /// Reads `text` in pieces of `size` bytes; the reader and the bytes it left.
    private func read(
        _ text: String, framing: HTTPRequestHead.BodyFraming, limit: Int = 1000, pieces size: Int
    ) throws(HTTPRequestError) -> (HTTPBodyReader, left: Int) {
        var reader = HTTPBodyReader(framing: framing, limit: limit)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count, !reader.isComplete {
            let end = min(index + size, bytes.count)
            index += try reader.read(bytes[index..<end])
        }
        return (reader, bytes.count - index)
    }

    @Test(
        "a Content-Length body, in pieces of 1, 3 and all bytes; what follows is left",
        arguments: [1, 3, 100])
    func lengthBody(pieces: Int) throws {
        let (reader, left) = try read("hello worldGET /", framing: .length(11), pieces: pieces)
        #expect(reader.isComplete)
        #expect(String(decoding: reader.body, as: UTF8.self) == "hello world")
        #expect(left == 5)
    }

    @Test("a chunked body with extensions and trailers, in any pieces", arguments: [1, 2, 7, 100])
    func chunkedBody(pieces: Int) throws {
        let text = "5;name=v\r\nhello\r\n6\r\n world\r\nA\n0123456789\n0\r\nTrailer: x\r\n\r\nNEXT"
        let (reader, left) = try read(text, framing: .chunked, pieces: pieces)
        #expect(reader.isComplete)
        #expect(String(decoding: reader.body, as: UTF8.self) == "hello world0123456789")
        #expect(left == 4)
    }

    @Test("over the limit: nothing kept, read to its end", arguments: [1, 100])
    func overTheLimit(pieces: Int) throws {
        let (chunked, _) = try read(
            "8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n", framing: .chunked, limit: 10,
            pieces: pieces)
        #expect(chunked.isTooLarge && chunked.isComplete && chunked.body.isEmpty)
        #expect(HTTPBodyReader(framing: .length(11), limit: 10).isTooLarge)
        #expect(!HTTPBodyReader(framing: .length(10), limit: 10).isTooLarge)
    }

    @Test(
        "malformed chunked coding is 400",
        arguments: ["x\r\n", "5\r\nhelloX\r\n", "\r\n", String(repeating: "1", count: 16) + "\r\n"])
    func malformed(text: String) {
        #expect(throws: HTTPRequestError.self) {
            _ = try read(text, framing: .chunked, pieces: 100)
        }
    }
}
