import Foundation
import Glibc
import Locking
import MQTT

/// A real mosquitto on 127.0.0.1 and a free port, started for a test and stopped after it.
public final class MosquittoBroker: @unchecked Sendable {
    // Touched only by the test that owns it.
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let directory: URL
    private var process: Process?

    /// Starts a broker on a free port.
    public init() throws {
        port = Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n".write(
            to: directory.appendingPathComponent("mosquitto.conf"), atomically: true,
            encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        Self.reserved.withLock { _ = $0.remove(port) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The ports of the brokers alive in this process. A broker keeps its port while it lives,
    /// stopped or not: a test that stops its broker and starts it again must find the port
    /// free, not taken by another test's new broker — whose clients would then talk to the
    /// wrong broker, both tests waiting for messages that never come.
    private static let reserved = LockedState<Set<Int>>([])

    /// Starts the broker and returns once it accepts connections.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", directory.appendingPathComponent("mosquitto.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Waits for the child to listen (a real process starting).
        guard blockUntil({ self.accepts() }) else { throw BrokerFailure.didNotStart(port) }
    }

    /// Stops the broker and waits for it to exit.
    public func stop() {
        guard let process, process.isRunning else { return }
        // SIGKILL: the child inherits the spawning pool thread's blocked signals, SIGTERM among
        // them, and mosquitto waits with the mask it inherited.
        kill(process.processIdentifier, SIGKILL)
        _ = blockUntil { !process.isRunning }
        self.process = nil
    }

    /// The broker's URL.
    public var url: String { "mqtt://127.0.0.1:\(port)" }

    /// The broker's address.
    public var broker: MQTTBroker { MQTTBroker(host: "127.0.0.1", port: port) }

    private func accepts() -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A port free now and reserved for this broker's life.
    private static func freePort() -> Int {
        while true {
            let port = unusedPort()
            let isNew = reserved.withLock { $0.insert(port).inserted }
            if isNew { return port }
        }
    }

    private static func unusedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 ? getsockname(descriptor, $0, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a broker could not be used.
public enum BrokerFailure: Error {
    /// mosquitto did not listen within ``hangBound``.
    case didNotStart(Int)
}

/// Messages received, and a wait for the one a test expects.
public final class Inbox: Sendable {
    private let messages = LockedState<[MQTTMessage]>([])

    /// An empty inbox.
    public init() {}

    /// Keeps `message`.
    public func add(_ message: MQTTMessage) { messages.withLock { $0.append(message) } }

    /// Every message received on `topic`, oldest first.
    public func all(on topic: String) -> [MQTTMessage] {
        messages.withLock { $0.filter { $0.topic == topic } }
    }

    /// The first message on `topic`, waiting for it up to ``hangBound``.
    public func first(on topic: String) async -> MQTTMessage? {
        await first(on: topic) { _ in true }
    }

    /// The first message on `topic` that `matches`, waiting for it up to ``hangBound``.
    public func first(
        on topic: String, where matches: (MQTTMessage) -> Bool
    ) async -> MQTTMessage? {
        var found: MQTTMessage?
        _ = await waitUntil {
            found = messages.withLock { $0.first { $0.topic == topic && matches($0) } }
            return found != nil
        }
        return found
    }
}
