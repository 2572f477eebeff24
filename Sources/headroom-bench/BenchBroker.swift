import Foundation
import MQTT
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// A mosquitto of its own for a benchmark: Debian's `/usr/sbin/mosquitto` on 127.0.0.1 and a
/// free port, killed when dropped.
final class BenchBroker {
    /// Where it listens.
    let broker: MQTTBroker
    private let process: Process
    private let directory: URL

    /// A running broker, or nil when mosquitto is not installed or does not listen within 5 s.
    init?() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            return nil
        }
        let port = Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-mosquitto-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = directory.appendingPathComponent("mosquitto.conf")
        try? "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n".write(
            to: configuration, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", configuration.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        broker = MQTTBroker(host: "127.0.0.1", port: port)
        guard (try? process.run()) != nil else { return nil }
        // The child listening (a real process starting), at most 5 s.
        let start = MonotonicClock.now()
        while LoopbackConnection(port: UInt16(port)).map({ $0.close() }) == nil {
            guard MonotonicClock.now().seconds(since: start) < 5 else { return nil }
            usleep(10_000)
        }
    }

    /// A port nothing listens on now, on 127.0.0.1.
    private static func freePort() -> Int {
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

    deinit {
        // SIGKILL: a child of a pool thread inherits SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
