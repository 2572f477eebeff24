import Foundation

/// Names in a sysfs directory that start with `prefix` followed by a number, in numeric order
/// (`thermal_zone2` before `thermal_zone10`); empty when the directory cannot be listed.
func numberedEntries(in directory: String, prefix: String) -> [(name: String, number: Int)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.compactMap { name -> (name: String, number: Int)? in
        guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)) else {
            return nil
        }
        return (name, number)
    }
    .sorted { $0.number < $1.number }
}
