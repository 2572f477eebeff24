#if canImport(Glibc)
    import Glibc
#endif

/// What the process is told about itself by the system — its environment, the machine's name,
/// a name no other file will have — read from the C library, so that a module needs no
/// Foundation for them (`ProcessInfo` and `UUID` are FoundationEssentials').
public enum ProcessFacts {
    /// The process's environment, by variable name; of a name given twice, the later value
    /// (as `ProcessInfo.environment` keeps it).
    public static var environment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
            }
            entry += 1
        }
        return variables
    }

    /// The machine's host name, as `hostname` prints it (`gethostname`); nil when it cannot be
    /// read.
    public static var hostName: String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0, name[0] != 0 else { return nil }
        return String(
            decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 32 random lowercase hex digits (128 bits from the system's generator, `getrandom`): a
    /// part of a file name no other writer picks.
    public static func uniqueName() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (word: UInt64) in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.utf8.count) + digits
        }.joined()
    }
}
