import Foundation
import HostService
import Locking
import Pressure
import Telemetry
import TestSupport
import Testing

/// The event log's readers: what they send, resuming, keep-alives, and the bounds.
struct EventLogTests {
    /// Everything `reader` has to send now, and whether it then waits or ended.
    static func drain(_ reader: EventReader) -> (text: String, ended: Bool) {
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7)
        while true {
            let result = buffer.withUnsafeMutableBytes { reader.read(into: $0, wake: {}) }
            switch result {
            case .bytes(let count): text += buffer[..<count]
            case .wait: return (String(decoding: text, as: UTF8.self), false)
            case .end: return (String(decoding: text, as: UTF8.self), true)
            }
        }
    }

    @Test("a reader gets new events in order, in the event-stream format")
    func eventsInOrder() throws {
        let log = EventLog(firstID: 1)
        log.append(name: "pressure", data: #"{"level":"nominal"}"#)
        let reader = try #require(log.reader(after: nil))
        #expect(Self.drain(reader).text == ": headroom events after 1\n\n")
        log.append(name: "pressure", data: #"{"level":"fair"}"#)
        log.append(name: "advice", data: #"{"client":"x"}"#)
        #expect(
            Self.drain(reader).text
                == "id: 2\nevent: pressure\ndata: {\"level\":\"fair\"}\n\nid: 3\nevent: advice\ndata: {\"client\":\"x\"}\n\n"
        )
    }

    @Test("Last-Event-ID resumes after that event; an unknown id gets every event kept")
    func resumes() throws {
        let log = EventLog(firstID: 1)
        for index in 1...5 { log.append(name: "advice", data: "{\"n\":\(index)}") }
        let resumed = Self.drain(try #require(log.reader(after: 3))).text
        #expect(resumed.hasPrefix(": resuming after 3\n\nid: 4\n"))
        #expect(resumed.contains("id: 5\n"))
        #expect(!resumed.contains("id: 3\n"))
        let unknown = Self.drain(try #require(log.reader(after: 99))).text
        #expect(unknown.hasPrefix(": 99 is not an id of these events"))
        #expect(unknown.contains("id: 1\n") && unknown.contains("id: 5\n"))
        let fresh = Self.drain(try #require(log.reader(after: nil))).text
        #expect(fresh == ": headroom events after 5\n\n")
    }

    @Test("a reader resuming with an id of an earlier process misses none of the new one's")
    func resumesAcrossARestart() throws {
        // Two processes: each log's ids start at a random number of its own.
        let earlier = EventLog()
        for index in 1...5 { earlier.append(name: "advice", data: "{\"n\":\(index)}") }
        let lastSeen = earlier.latestID
        let restarted = EventLog()
        #expect(restarted.firstID != earlier.firstID)
        restarted.append(name: "pressure", data: #"{"level":"nominal"}"#)
        restarted.append(name: "advice", data: "{}")
        let resumed = Self.drain(try #require(restarted.reader(after: lastSeen))).text
        #expect(resumed.contains("id: \(restarted.firstID)\nevent: pressure\n"))
        #expect(resumed.contains("id: \(restarted.firstID + 1)\nevent: advice\n"))
    }

    @Test("a waiting reader is woken by the next event and by a keep-alive")
    func wakes() throws {
        let log = EventLog(firstID: 1)
        let reader = try #require(log.reader(after: nil))
        _ = Self.drain(reader)
        let woken = LockedState(0)
        var buffer = [UInt8](repeating: 0, count: 64)
        let result = buffer.withUnsafeMutableBytes {
            reader.read(into: $0, wake: { woken.withLock { $0 += 1 } })
        }
        #expect(result == .wait)
        log.heartbeat()
        #expect(woken.withLock { $0 } == 1)
        #expect(Self.drain(reader).text == ": keep-alive\n\n")
        log.append(name: "advice", data: "{}")
        #expect(woken.withLock { $0 } == 1, "a wake-up is given once")
    }

    @Test("a reader that falls behind is closed, never grows; the log keeps what it can serve")
    func fallsBehind() throws {
        let log = EventLog(readerLimit: 4, lagLimit: 16, firstID: 1)
        let reader = try #require(log.reader(after: nil))
        _ = Self.drain(reader)
        for index in 0..<1000 { log.append(name: "advice", data: "{\"n\":\(index)}") }
        let (text, ended) = Self.drain(reader)
        #expect(ended)
        #expect(text.contains("closed: 1000 events behind; reconnect with Last-Event-ID: 0"))
        // Reconnecting far behind resumes as far back as the lag allows.
        let again = Self.drain(try #require(log.reader(after: 0))).text
        #expect(again.hasPrefix(": events 1 to 984 are no longer kept\n\nid: 985\n"))
    }

    @Test("at most readerLimit readers; a closed one frees its place")
    func readerLimit() throws {
        let log = EventLog(readerLimit: 2)
        let first = try #require(log.reader(after: nil))
        _ = try #require(log.reader(after: nil))
        #expect(log.reader(after: nil) == nil)
        first.close()
        first.close()
        #expect(log.readerCount == 1)
        #expect(log.reader(after: nil) != nil)
    }

    @Test("closing the log ends every stream")
    func closes() throws {
        let log = EventLog(firstID: 1)
        let reader = try #require(log.reader(after: nil))
        _ = Self.drain(reader)
        log.close()
        let (text, ended) = Self.drain(reader)
        #expect(ended)
        #expect(text.contains("stopping"))
        #expect(log.reader(after: nil) == nil)
    }

    @Test("the service writes a pressure event on each change of level, advice on each change")
    func serviceEvents() throws {
        let fixture = try ServiceFixture()
        let reader = try #require(fixture.service.events.reader(after: nil))
        fixture.service.consume(fixture.reading(.nominal))
        fixture.service.consume(fixture.reading(.nominal))
        _ = fixture.call("POST", "/v1/clients", body: ServiceFixture.registration)
        fixture.service.consume(fixture.reading(.serious, share: 0.3))
        let text = Self.drain(reader).text
        #expect(text.components(separatedBy: "event: pressure\n").count == 3)
        #expect(text.contains("\"from\":\"nominal\""))
        // One for the registration, one for the shedding.
        #expect(text.components(separatedBy: "event: advice\n").count == 3)
        #expect(text.contains("\"name\":\"people\""))
    }

    @Test(
        "keep-alives reach every reader every 15 s of the service's clock, with no reading",
        .timeLimit(.minutes(10)))
    func keepAlivesWithoutReadings() async throws {
        let fixture = try ServiceFixture()
        let reader = try #require(fixture.service.events.reader(after: nil))
        _ = Self.drain(reader)
        let keepAlives = Task { try await fixture.service.sendKeepAlives() }
        defer { keepAlives.cancel() }
        for _ in 0..<3 {
            #expect(await waitUntil { fixture.clock.sleeperCount > 0 })
            #expect(Self.drain(reader).text.isEmpty, "nothing before the interval")
            fixture.clock.advance(by: HostService.heartbeatInterval)
            var text = ""
            #expect(
                await waitUntil {
                    text = Self.drain(reader).text
                    return !text.isEmpty
                })
            #expect(text == ": keep-alive\n\n")
        }
    }
}
