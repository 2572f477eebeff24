import CLI
import HostService
import Telemetry

/// What `serve` and `run --serve` share about reaching the host service: the token option, the
/// address they announce, and the note a server beyond loopback prints.
public enum ServiceAccess {
    /// `--token-file FILE`: the bearer token state-changing requests from beyond loopback need.
    public static let tokenFileOption = Option<String?>.path(
        "--token-file", "FILE",
        "the token POST and DELETE from beyond loopback need (a file of mode 0600, or a"
            + " systemd credential)")

    /// `listen`'s host with the port the server took, as `HOST:PORT` (an IPv6 host bracketed).
    public static func address(_ listen: ListenAddress, port: UInt16) -> String {
        "\(listen.isIPv6 ? "[\(listen.host)]" : listen.host):\(port)"
    }

    /// Tells on stderr, as `command`, that the server at `address` is reachable beyond
    /// loopback, and that without `token` it refuses changes from there; nothing on loopback.
    public static func noteReach(
        of listen: ListenAddress, at address: String, token: BearerToken?, command: String
    ) {
        guard !listen.isLoopback else { return }
        Console.error(
            "\(command): note: serving beyond loopback on \(address)"
                + (token == nil
                    ? "; POST and DELETE from other machines are refused without --token-file"
                    : "; POST and DELETE from other machines need its token"))
    }
}
