import Files

#if canImport(Glibc)
    import Glibc
#endif

/// Names in a sysfs directory that start with `prefix` followed by a number, in numeric order
/// (`thermal_zone2` before `thermal_zone10`); empty when the directory cannot be listed.
func numberedEntries(in directory: String, prefix: String) -> [(name: String, number: Int)] {
    let names = FileSystem.entries(of: directory) ?? []
    return names.compactMap { name -> (name: String, number: Int)? in
        guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)) else {
            return nil
        }
        return (name, number)
    }
    .sorted { $0.number < $1.number }
}

/// A cheap summary of a directory's entry names (a hash of the sorted-insensitive set), read
/// with `readdir` each sample so that a chip or zone appearing or vanishing triggers a
/// rediscovery without paying for one every sample. `nil` when the directory cannot be read.
func directoryFingerprint(_ directory: String) -> Int? {
    guard let handle = opendir(directory) else { return nil }
    defer { closedir(handle) }
    var combined = 0
    var count = 0
    while let entry = readdir(handle) {
        var hasher = Hasher()
        withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            for byte in bytes {
                if byte == 0 { break }
                hasher.combine(byte)
            }
        }
        // Order-independent: directory order differs between filesystems and over time.
        combined ^= hasher.finalize()
        count += 1
    }
    return combined &+ count
}
