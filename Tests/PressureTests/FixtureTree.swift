import Foundation

/// A temporary directory standing for `/sys` or `/proc`, removed when the test ends.
final class FixtureTree {
    let root: String

    convenience init() throws {
        self.init(empty: ())
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    private init(empty: Void) {
        root =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("headroom-pressure-\(UUID().uuidString)").path
    }

    /// A copy of the board tree `Tests/Boards/<board>/sys`, which tests may change.
    convenience init(board: String) throws {
        self.init(empty: ())
        let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Boards")
        try FileManager.default.copyItem(
            atPath: boards.appendingPathComponent("\(board)/sys").path, toPath: root)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes `text` (plus a newline, as sysfs does) at `path` below the root, in place when
    /// the file exists so open descriptors see the new value.
    func write(_ path: String, _ text: String) throws {
        let full = root + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if let handle = FileHandle(forWritingAtPath: full) {
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data((text + "\n").utf8))
            try handle.close()
        } else {
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: full))
        }
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + path)
    }

    func symlink(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: root + "/" + path, withDestinationPath: target)
    }

    /// A thermal zone with a temperature in °C and trip points `(type, °C, hyst °C)`.
    func addZone(_ number: Int, type: String, celsius: Double, trips: [(String, Double, Double)])
        throws
    {
        let zone = "class/thermal/thermal_zone\(number)"
        try write("\(zone)/type", type)
        try write("\(zone)/temp", String(Int(celsius * 1000)))
        for (index, trip) in trips.enumerated() {
            try write("\(zone)/trip_point_\(index)_type", trip.0)
            try write("\(zone)/trip_point_\(index)_temp", String(Int(trip.1 * 1000)))
            try write("\(zone)/trip_point_\(index)_hyst", String(Int(trip.2 * 1000)))
        }
    }

    /// A cooling device in state `state` of `maximum` (no `max_state` file when `nil`).
    func addCoolingDevice(_ number: Int, type: String, state: Int, maximum: Int?) throws {
        let device = "class/thermal/cooling_device\(number)"
        try write("\(device)/type", type)
        try write("\(device)/cur_state", String(state))
        if let maximum { try write("\(device)/max_state", String(maximum)) }
    }

    func setZone(_ number: Int, celsius: Double) throws {
        try write("class/thermal/thermal_zone\(number)/temp", String(Int(celsius * 1000)))
    }
}
