import Files
import Foundation
import Testing
import Tracking

@testable import Pipeline

@Suite("MOTLog")
struct MOTLogTests {
    static func records(_ count: Int) -> [MOTRecord] {
        (0..<count).map {
            MOTRecord(
                frame: $0 / 4 + 1, id: $0 % 4,
                box: BoundingBox(minX: Double($0 % 700), minY: 12.5, width: 30.25, height: 80),
                confidence: 0.875)
        }
    }

    @Test("lines spilled to the temporary file and those still held arrive whole, in order")
    func spillsAndCopies() throws {
        let directory = NSTemporaryDirectory() + "headroom-motlog-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = MOTLog()
        let all = Self.records(20_000)
        // Several spills (about 1 MB of lines against a 256 KiB block), then a tail held back.
        for chunk in stride(from: 0, to: all.count, by: 7) {
            log.append(Array(all[chunk..<min(chunk + 7, all.count)]))
        }
        #expect(MOTFile.format(all).utf8.count > 3 * MOTLog.spillSize)
        try log.write(to: "\(directory)/tracks.txt")
        let text = try String(contentsOfFile: "\(directory)/tracks.txt", encoding: .utf8)
        #expect(text == MOTFile.format(all))
        // Written again after more lines: the whole log, not only what came since.
        log.append(Self.records(1))
        try log.write(to: "\(directory)/tracks.txt")
        let again = try String(contentsOfFile: "\(directory)/tracks.txt", encoding: .utf8)
        #expect(again == MOTFile.format(all + Self.records(1)))
    }

    @Test("an empty log writes an empty file; a place that cannot be written is an error")
    func emptyAndUnwritable() throws {
        let directory = NSTemporaryDirectory() + "headroom-motlog-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = MOTLog()
        try log.write(to: "\(directory)/detections.txt")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/detections.txt")).isEmpty)
        log.append(Self.records(3))
        #expect(throws: ConfigurationError.self) {
            try log.write(to: "/proc/headroom-cannot/detections.txt")
        }
    }

    @Test("a log keeps at most its capacity: later lines are counted, not kept")
    func keepsItsCapacity() throws {
        let directory = NSTemporaryDirectory() + "headroom-motlog-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let all = Self.records(1_000)
        let firstHundred = MOTFile.format(Array(all.prefix(100))).utf8.count
        let log = MOTLog(capacity: firstHundred)
        for record in all { log.append([record]) }
        #expect(log.droppedRecords == 900)
        try log.write(to: "\(directory)/tracks.txt")
        let text = try String(contentsOfFile: "\(directory)/tracks.txt", encoding: .utf8)
        #expect(text == MOTFile.format(Array(all.prefix(100))))
        #expect(MOTLog().capacity == MOTFile.maximumFileSize)
    }
}
