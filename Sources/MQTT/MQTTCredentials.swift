import Files

/// A user name and password for a broker, read from a file only its owner may read: the user
/// on the first line, the password on the second.
public struct MQTTCredentials: Sendable, Equatable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Credentials with these values.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The credentials in the file at `path` (mode 0600 or 0400).
    ///
    /// - Throws: ``Files/ConfigurationError`` naming the file and what was wrong: its mode,
    ///   or not two non-empty lines.
    public static func load(from path: String) throws(ConfigurationError) -> MQTTCredentials {
        var text = try SecretFile.read(path, limit: 4096)
        // A byte-order mark some editors write is not part of the user name.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // Any line ends: LF, and CRLF, which is one Character in Swift (a split on "\n" alone
        // never sees it).
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty,
            lines.dropFirst(2).allSatisfy(\.isEmpty)
        else {
            throw ConfigurationError(
                file: path, path: "",
                problem: "expected the user name on the first line and the password on the second")
        }
        return MQTTCredentials(user: String(lines[0]), password: String(lines[1]))
    }
}
