#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a user's programs keep their data, as the XDG base-directory specification says:
/// `$XDG_DATA_HOME` when it is an absolute path, else `$HOME/.local/share`, with the home
/// directory from the password database for a process without `HOME` (a service).
public enum DataHome {
    /// The data directory for `environment`.
    public static func directory(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data }
        return "\(environment["HOME"] ?? passwordDatabaseHome())/.local/share"
    }

    /// This user's home directory from the password database, `/` when it has none.
    private static func passwordDatabaseHome() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else {
            return "/"
        }
        return String(cString: directory)
    }
}
