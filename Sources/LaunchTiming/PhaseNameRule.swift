import Units

/// What a phase's or a mark's name may be, wherever it comes from (a program's trace line, an
/// imported report, libheadroom): 1 to ``byteLimit`` bytes of UTF-8 with no character that
/// hides text (``Units/Unicode/Scalar/hidesText``: escapes, NUL, bidi overrides, zero-width
/// characters), so that a name shown in `launch history`, a Markdown report or a terminal says
/// what it is, and two names stored are the same only when they are.
public enum PhaseNameRule {
    /// The longest name, in UTF-8 bytes.
    public static let byteLimit = 1024

    /// Why `name` cannot name a phase; `nil` when it can.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "expected a name, got an empty one" }
        if name.utf8.count > byteLimit {
            return "expected at most \(byteLimit) bytes, got \(name.utf8.count)"
        }
        if let scalar = name.unicodeScalars.first(where: \.hidesText) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            return "expected no control or invisible characters, got U+\(code)"
        }
        return nil
    }
}
