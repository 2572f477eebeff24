#if canImport(Glibc)
    import Glibc
#endif

/// systemd's notify protocol, spoken without libsystemd: one datagram per state change
/// (`READY=1`, `WATCHDOG=1`, `STOPPING=1`, `STATUS=…`) to the socket in `$NOTIFY_SOCKET` (a
/// path, or an abstract name after `@`). Without the variable it does nothing, so the same
/// binary runs under systemd and from a shell.
public struct SystemdNotifier: Sendable {
    /// The socket's address as systemd gave it; nil when not run by systemd.
    public let socket: String?
    /// How often the watchdog wants `WATCHDOG=1`: half of `$WATCHDOG_USEC`; nil without it.
    public let watchdogInterval: Duration?

    /// A notifier for the socket and watchdog systemd passed (`NOTIFY_SOCKET`,
    /// `WATCHDOG_USEC`, `WATCHDOG_PID` in `environment`); the watchdog applies only when
    /// `WATCHDOG_PID` is absent or this process's.
    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socket = path
        if let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text),
            microseconds > 0,
            environment["WATCHDOG_PID"].map({ Int32($0) == getpid() }) ?? true
        {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Tells systemd the service is ready.
    @discardableResult
    public func ready(status: String) -> Bool { send("READY=1\nSTATUS=\(status)") }

    /// Tells the watchdog the service is alive.
    @discardableResult
    public func watchdog() -> Bool { send("WATCHDOG=1") }

    /// Tells systemd the service is stopping.
    @discardableResult
    public func stopping() -> Bool { send("STOPPING=1") }

    /// Sends `message` as one datagram; whether it was sent (false without a socket).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socket, !socket.isEmpty else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(socket.utf8)
        let isAbstract = name.first == UInt8(ascii: "@")
        if isAbstract { name[0] = 0 }
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = MemoryLayout<sa_family_t>.size + name.count + (isAbstract ? 0 : 1)
        let descriptor = Glibc.socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                sendto(
                    descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), address, socklen_t(length))
            }
        }
        return sent == bytes.count
    }
}
