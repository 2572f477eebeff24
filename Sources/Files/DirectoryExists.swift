import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension FileManager {
    /// Whether `path` names an existing directory, or a symbolic link to one (`stat`, so what
    /// Foundation's `fileExists(atPath:isDirectory:)` tells, without its `ObjCBool`).
    public func directoryExists(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
