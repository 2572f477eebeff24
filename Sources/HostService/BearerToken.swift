import Files

/// The secret that requests changing the service's state must carry when they come from
/// beyond loopback: `Authorization: Bearer TOKEN`, read from a file only its owner can read.
public struct BearerToken: Sendable {
    private let secret: [UInt8]

    /// The token in `text` (surrounding white space dropped).
    ///
    /// - Throws: ``Files/ConfigurationError`` when it is empty or not printable ASCII.
    public init(_ text: String, file: String? = nil) throws(ConfigurationError) {
        let token = text.trimmingWhitespace()
        guard (16...4096).contains(token.utf8.count),
            token.utf8.allSatisfy({ (0x21...0x7e).contains($0) })
        else {
            throw ConfigurationError(
                file: file, path: "",
                problem: "expected a token of 16 to 4096 printable ASCII characters, no spaces")
        }
        secret = Array(token.utf8)
    }

    /// Reads the token from `path`, a regular file that neither its group nor others may read
    /// or write (mode 0600 or 0400).
    ///
    /// - Throws: ``Files/ConfigurationError`` naming the file and what was wrong with it.
    public static func load(from path: String) throws(ConfigurationError) -> BearerToken {
        try BearerToken(SecretFile.read(path, limit: 4096 + 64), file: path)
    }

    /// Whether an `Authorization` header value carries this token (compared in constant
    /// time). The scheme is case-insensitive and may be followed by more than one space, and
    /// white space around the token is ignored (RFC 7235, RFC 9110 §11.1).
    public func accepts(authorization header: String?) -> Bool {
        guard let header else { return false }
        let parts = header.split(
            maxSplits: 1, omittingEmptySubsequences: true,
            whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let offered = Array(parts[1].trimmingWhitespace().utf8)
        guard offered.count == secret.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(offered, secret) { difference |= a ^ b }
        return difference == 0
    }
}
