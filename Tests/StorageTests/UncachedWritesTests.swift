import CStorage
import Foundation
import Testing
import Units

@testable import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// Recordings into the reserve written past the page cache (`O_DIRECT` from a ring of aligned
/// buffers), on the same filesystems as ``StorageReserveTests``.
struct UncachedWritesTests {
    typealias Fixture = StorageReserveTests

    /// Records `frames` of the fixture's units into a fresh reserve under `directory`.
    static func recordIntoReserve(
        _ frames: Int, in directory: String, options: RecordingWriter.Options = .init()
    ) throws -> RecordingWriter.Summary {
        let reserve = try StorageReserve(directory: "\(directory)/reserve")
        try reserve.allocate(.mebibytes(16))
        let recording = try ReserveRecording(
            reserve: reserve, destination: "\(directory)/clip.bin", layout: Fixture.layout)
        var options = options
        options.queueLimit = frames + 1
        let writer = try RecordingWriter(
            target: recording, layout: Fixture.layout, header: Fixture.header,
            unitPrefix: Fixture.prefix, unitSuffix: [], options: options,
            clock: ContinuousRunClock())
        for index in 0..<frames { #expect(writer.enqueue(Fixture.payload(index)) == .queued) }
        writer.endWriting()
        return writer.writeQueued()
    }

    /// The size of the file at `path`, or `nil`.
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// How many of the file's pages are in the page cache (`mincore` over a mapping of it).
    static func cachedPages(_ path: String) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var info = stat()
        fstat(descriptor, &info)
        let length = Int(info.st_size)
        guard length > 0,
            let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0),
            mapping != MAP_FAILED
        else { return -1 }
        defer { munmap(mapping, length) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (length + page - 1) / page)
        guard mincore(mapping, length, &resident) == 0 else { return -1 }
        return resident.filter { $0 & 1 != 0 }.count
    }

    @Test(
        "into the reserve the writes bypass the page cache: every byte in place, none cached",
        arguments: Fixture.roots)
    func bypassesThePageCache(root: String) throws {
        let directory = Fixture.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 6,000 units of 1,000 bytes: none on a block boundary, and the 4 MiB ring goes round.
        let summary = try Self.recordIntoReserve(6000, in: directory)
        #expect(summary.endReason == .finished && summary.frames == 6000)
        #expect(summary.uncached)
        let path = "\(directory)/clip.bin"
        #expect(Self.fileSize(path) == Fixture.layout.length(units: 6000))
        if headroom_filesystem_magic(directory) != 0x0102_1994 {  // a tmpfs is all page cache
            #expect(Self.cachedPages(path) == 0)
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)) == Data(Fixture.expected(frames: 6000))
        )
    }

    @Test(
        "through the page cache (a filesystem refusing O_DIRECT) the same bytes, said so",
        arguments: Fixture.roots)
    func fallsBackToThePageCache(root: String) throws {
        let directory = Fixture.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = RecordingWriter.Options()
        options.uncached = false
        let summary = try Self.recordIntoReserve(3000, in: directory, options: options)
        #expect(summary.endReason == .finished && !summary.uncached)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: "\(directory)/clip.bin"))
                == Data(Fixture.expected(frames: 3000)))
    }

    @Test("a write that fails ends the recording at the last whole unit the disk has")
    func aFailedWriteEndsAtTheLastWholeUnit() throws {
        let directory = Fixture.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = try RefusingTarget(destination: "\(directory)/clip.bin")
        var options = RecordingWriter.Options()
        options.queueLimit = 100
        let writer = try RecordingWriter(
            target: target, layout: Fixture.layout, header: Fixture.header,
            unitPrefix: Fixture.prefix, unitSuffix: [], options: options,
            clock: ContinuousRunClock())
        for index in 0..<100 { _ = writer.enqueue(Fixture.payload(index)) }
        writer.endWriting()
        let summary = writer.writeQueued()
        #expect(summary.endReason == .failed && summary.uncached)
        #expect(summary.problem == String(cString: strerror(EBADF)))
        // Nothing reached the disk, not even the header: nothing is claimed.
        #expect(summary.frames == 0 && summary.bytes == .zero)
        #expect(Self.fileSize("\(directory)/clip.bin") == 0)
    }

    @Test("the sustained rate is the slowest second once half the bytes are on the disk")
    func sustainedRateIsTheSlowestSecond() {
        // Half the bytes (500) are on the disk at 1 s; then a second of 100, a second of 200,
        // and half a second too short to count.
        let progress: [(seconds: Double, bytes: Int64)] = [
            (0, 0), (0.5, 400), (1, 500), (2, 600), (3, 800), (3.5, 1000),
        ]
        #expect(WriteRateProbe.sustainedRate(progress) == DataRate(bytesPerSecond: 100))
        // No whole second after half: from half to the end.
        #expect(
            WriteRateProbe.sustainedRate([(0, 0), (1, 600), (1.5, 1000)])
                == DataRate(bytesPerSecond: 800))
        // Nothing after half: the average.
        #expect(
            WriteRateProbe.sustainedRate([(0, 0), (2, 1000)]) == DataRate(bytesPerSecond: 500))
    }

    @Test(
        "the write-rate probe writes as the reserve records, timed to the disk; beside another writer it says how fast that one wrote; it leaves nothing behind",
        arguments: [nil, DataRate(.mebibytes(8), per: 1)])
    func probeMeasuresUncachedWrites(competitor: DataRate?) throws {
        let directory = Fixture.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: directory)
        let measurement = try WriteRateProbe.measure(
            in: reserve, seconds: 0.5, limit: .mebibytes(64), competitor: competitor,
            clock: ContinuousRunClock())
        #expect(measurement.uncached && !measurement.usedReserve)
        #expect(measurement.bytes > .zero && measurement.bytes <= .mebibytes(64))
        #expect(measurement.rate.bytesPerSecond > 0 && measurement.averageRate.bytesPerSecond > 0)
        #expect((measurement.competitorRate == nil) == (competitor == nil))
        if let competitor, let competed = measurement.competitorRate {
            // Paced: a chunk of 1 MiB at once, then at its rate, never ahead of it.
            #expect(competed.bytesPerSecond > 0)
            #expect(
                competed.bytesPerSecond * measurement.seconds
                    <= 2 * Double(1 << 20) + competitor.bytesPerSecond * measurement.seconds)
            #expect(
                measurement.summary(reserve: directory).contains("with another writer beside it"))
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).filter {
                $0.hasPrefix(".write-rate-probe") || $0.hasPrefix(".competing-writer")
            }.isEmpty)
    }
}

/// A growing file whose `O_DIRECT` descriptor refuses every write (opened read-only): a disk
/// that fails under the ring.
final class RefusingTarget: RecordingTarget {
    let plain: GrowingFileTarget
    let uncachedDescriptor: Int32?

    init(destination: String) throws {
        plain = try GrowingFileTarget(destination: destination)
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        let name = try #require(
            FileManager.default.contentsOfDirectory(atPath: parent).first { $0.hasSuffix(".part") })
        uncachedDescriptor = open("\(parent)/\(name)", O_RDONLY | O_CLOEXEC)
    }

    var descriptor: Int32 { plain.descriptor }
    var destination: String { plain.destination }
    func prepare(through end: Int64) throws(StorageError) -> Bool { true }
    func remaining(afterWriting written: Int64) -> ByteCount? { nil }
    func finish(length: Int64) throws(StorageError) -> String {
        if let uncachedDescriptor { close(uncachedDescriptor) }
        return try plain.finish(length: length)
    }
}
