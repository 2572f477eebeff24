import CLI

#if canImport(Glibc)
    import Glibc
#endif

/// `headroomd`, the resident daemon's own executable: `headroom serve` alone, linking none of
/// the pipeline's modules, OpenCV or what they pull in, so that a daemon left running for
/// months maps only what it uses. `headroom serve` becomes it (the same process, its
/// arguments and its pid: systemd's notify socket and signals reach it as before) when it is
/// installed beside `headroom`, and runs in-process otherwise.
public enum DaemonExecutable {
    /// Its file name.
    public static let name = "headroomd"

    /// Replaces this process with `headroomd` from the directory of this process's own
    /// executable, with `arguments` (what follows `headroom serve`); returns only when there
    /// is no such executable there, or it cannot be run (the caller then serves in-process).
    public static func replaceProcess(arguments: [String]) {
        guard let path = besideThisExecutable(), access(path, X_OK) == 0 else { return }
        let words = [path] + arguments
        var pointers = words.map { strdup($0) } + [nil]
        execv(path, &pointers)
        // Only a failed exec returns.
        for pointer in pointers { free(pointer) }
    }

    /// `headroomd`'s path in the directory of this process's executable (`/proc/self/exe`);
    /// nil when that cannot be read.
    static func besideThisExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(
            decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return String(executable[...slash]) + name
    }
}
