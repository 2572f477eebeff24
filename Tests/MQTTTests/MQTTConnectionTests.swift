import Files
import Foundation
import Locking
import MQTT
import TestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(10)))
struct MQTTConnectionTests {
    @Test("broker URLs: mqtt and mqtts, default ports, IPv6, and what is refused")
    func urls() throws {
        #expect(try MQTTBroker(parsing: "mqtt://broker") == MQTTBroker(host: "broker"))
        #expect(
            try MQTTBroker(parsing: "mqtts://h:8884")
                == MQTTBroker(host: "h", port: 8884, usesTLS: true))
        #expect(try MQTTBroker(parsing: "mqtt://[::1]:1884").host == "::1")
        #expect(try MQTTBroker(parsing: "mqtt://[::1]:1884").description == "mqtt://[::1]:1884")
        #expect(try MQTTBroker(parsing: "mqtt://10.0.0.2:1884").host == "10.0.0.2")
        #expect(try MQTTBroker(parsing: "mqtt://home_broker.lan").host == "home_broker.lan")
        let bad = [
            "http://h", "mqtt://", "mqtt://h:0", "mqtt://h:port", "mqtt://h/x", "mqtt://::1",
            "mqtt://ho st", "mqtt://host?x=1", "mqtt://host#x", "mqtt://h:1:2", "mqtt://[::1",
            "mqtt://[nope]:1", "mqtt://[::1]x", "mqtt://a..b",
            "mqtt://" + String(repeating: "h", count: 70_000),
        ]
        for url in bad {
            #expect(throws: MQTTError.self, "\(url.prefix(40))") { try MQTTBroker(parsing: url) }
        }
        // Credentials in a URL are refused without echoing them (stderr is the journal).
        #expect {
            try MQTTBroker(parsing: "mqtt://user:s3cret@host:1883")
        } throws: { error in
            let text = "\(error)"
            return text.contains("--mqtt-credentials") && !text.contains("s3cret")
        }
        // An error echoes at most 64 characters of what it was given.
        #expect {
            try MQTTBroker(parsing: "mqtt://" + String(repeating: "h", count: 70_000))
        } throws: { error in "\(error)".count < 300 }
    }

    @Test("published through a real broker: received live, and retained for a later subscriber")
    func roundTrip() async throws {
        let broker = try MosquittoBroker()
        let inbox = Inbox()
        let publisher = try MQTTConnection(broker: broker.broker, clientID: "publisher")
        let connected = Inbox()
        publisher.onConnect { _ in connected.add(MQTTMessage(topic: "up", text: "")) }
        try publisher.start()
        defer { publisher.stop() }
        #expect(await connected.first(on: "up") != nil)
        // A watcher's copy, live or retained, says the broker has stored the message: only a
        // subscriber that comes after that gets it as retained (publishing is queued).
        let watched = Inbox()
        let watcher = try MQTTConnection(broker: broker.broker, clientID: "watcher")
        watcher.onConnect { $0.subscribe("headroom/state") }
        watcher.onMessage { watched.add($0) }
        try watcher.start()
        defer { watcher.stop() }
        #expect(
            publisher.publish(
                MQTTMessage(topic: "headroom/state", text: "nominal", isRetained: true)))
        #expect(await watched.first(on: "headroom/state")?.text == "nominal")
        let subscriber = try MQTTConnection(broker: broker.broker, clientID: "subscriber")
        subscriber.onConnect { $0.subscribe("headroom/#") }
        subscriber.onMessage { inbox.add($0) }
        try subscriber.start()
        defer { subscriber.stop() }
        let retained = await inbox.first(on: "headroom/state")
        #expect(retained?.text == "nominal" && retained?.isRetained == true)
        publisher.publish(MQTTMessage(topic: "headroom/live", text: "serious"))
        #expect(await inbox.first(on: "headroom/live")?.text == "serious")
    }

    @Test("a broker that goes away: publishing drops without blocking, and reconnecting resumes")
    func reconnects() async throws {
        let broker = try MosquittoBroker()
        let inbox = Inbox()
        let connections = LockedState(0)
        let subscriber = try MQTTConnection(broker: broker.broker, clientID: "follower")
        subscriber.onConnect { connection in
            connections.withLock { $0 += 1 }
            connection.subscribe("headroom/#")
        }
        subscriber.onMessage { inbox.add($0) }
        try subscriber.start()
        defer { subscriber.stop() }
        let publisher = try MQTTConnection(broker: broker.broker, clientID: "source")
        try publisher.start()
        defer { publisher.stop() }
        #expect(await waitUntil { publisher.isConnected && connections.withLock { $0 } == 1 })
        broker.stop()
        #expect(await waitUntil { !publisher.isConnected })
        #expect(!publisher.publish(MQTTMessage(topic: "headroom/lost", text: "x")))
        try broker.start()
        // libmosquitto retries after 1 s, then 2 s, …: within 10 s both are back.
        #expect(await waitUntil { publisher.isConnected && connections.withLock { $0 } == 2 })
        #expect(connections.withLock { $0 } == 2, "the subscriber connected again (and subscribed)")
        // Its subscription is sent on connecting and may reach the broker after a message
        // from the other connection: probes go until one is delivered, then the broker has it.
        #expect(
            await waitUntil {
                _ = publisher.publish(MQTTMessage(topic: "headroom/probe", text: "p"))
                return !inbox.all(on: "headroom/probe").isEmpty
            })
        #expect(publisher.publish(MQTTMessage(topic: "headroom/back", text: "y")))
        #expect(await inbox.first(on: "headroom/back")?.text == "y")
        // One connection's messages arrive in order: had the lost one been kept and sent on
        // reconnecting, it would have come before this one.
        #expect(inbox.all(on: "headroom/lost").isEmpty)
    }
}

@Suite(.timeLimit(.minutes(10)))
struct MQTTConnectionWithoutBrokerTests {
    @Test("no broker at all: start returns, publishing drops, stop returns at once")
    func noBroker() throws {
        let nobody = try MosquittoBroker()
        let address = nobody.broker
        nobody.stop()
        let connection = try MQTTConnection(broker: address, clientID: "alone")
        let statuses = LockedState<[String?]>([])
        connection.onStatus { status in statuses.withLock { $0.append(status) } }
        try connection.start()
        #expect(!connection.publish(MQTTMessage(topic: "headroom/x", text: "x")))
        #expect(!connection.isConnected)
        connection.stop()
        // Never connected is said too: libmosquitto's retries are silent.
        #expect(
            statuses.withLock { $0 } == [
                "cannot connect (Connection refused); trying again every 1 to 30 s"
            ])
    }

    @Test("a broker name that does not resolve (yet): start returns, the thread keeps trying")
    func unresolvedName() throws {
        let connection = try MQTTConnection(
            broker: try MQTTBroker(parsing: "mqtt://headroom-broker.invalid"), clientID: "early")
        let statuses = LockedState<[String?]>([])
        connection.onStatus { status in statuses.withLock { $0.append(status) } }
        try connection.start()
        #expect(
            statuses.withLock { $0.first??.contains("headroom-broker.invalid does not resolve") }
                == true)
        #expect(!connection.publish(MQTTMessage(topic: "headroom/x", text: "x")))
        #expect(!connection.isConnected)
        connection.stop()
    }
}

@Suite struct MQTTCredentialsTests {
    /// A file holding `text` with `mode`.
    func file(_ text: String, mode: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "credentials-\(UUID().uuidString)"
        ).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test("user on the first line, password on the second, from a file only its owner reads")
    func loads() throws {
        let path = try file("camera\ns3cret pass\n", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            try MQTTCredentials.load(from: path)
                == MQTTCredentials(user: "camera", password: "s3cret pass"))
    }

    @Test("as editors write it: CRLF, mixed line ends, a byte-order mark; empty or huge refused")
    func asPublished() throws {
        let expected = MQTTCredentials(user: "camera", password: "s3cret")
        var paths: [String] = []
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        for text in ["camera\r\ns3cret\r\n", "camera\ns3cret\r\n", "\u{FEFF}camera\r\ns3cret"] {
            paths.append(try file(text, mode: 0o600))
            #expect(
                try MQTTCredentials.load(from: paths.last!) == expected, "\(text.debugDescription)")
        }
        for text in ["", String(repeating: "x", count: 5000) + "\npass\n"] {
            paths.append(try file(text, mode: 0o600))
            #expect(throws: ConfigurationError.self) { try MQTTCredentials.load(from: paths.last!) }
        }
    }

    @Test("a file others may read, or not two lines, is refused saying why")
    func refused() throws {
        let open = try file("camera\nsecret\n", mode: 0o644)
        let short = try file("camera\n", mode: 0o600)
        defer { for path in [open, short] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(
            throws: ConfigurationError(
                file: open, path: "",
                problem: "expected a file only its owner may read (mode 0600), got mode 0644")
        ) {
            try MQTTCredentials.load(from: open)
        }
        #expect(throws: ConfigurationError.self) { try MQTTCredentials.load(from: short) }
    }
}
