import CStorage
import Foundation
import Storage
import Testing
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// The reserve on real filesystems: the test's temporary directory always, and the
/// filesystems `scripts/storage-checks.sh` mounts (a tmpfs and a small ext4 image) when it
/// names them in `HEADROOM_STORAGE_FILESYSTEMS` ("tmpfs=/mnt/a ext4=/mnt/b").
struct StorageReserveTests {
    /// The roots to test on, each labelled with its filesystem.
    static let roots: [String] = {
        let named = ProcessInfo.processInfo.environment["HEADROOM_STORAGE_FILESYSTEMS"] ?? ""
        let mounted = named.split(separator: " ").compactMap { $0.split(separator: "=").last }
        return [NSTemporaryDirectory()] + mounted.map(String.init)
    }()

    /// A fresh directory under `root`, removed by the caller.
    static func scratch(_ root: String) -> String {
        let path = "\(root)/headroom-storage-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A tiny Y4M-like layout: a 10-byte header, units of a 6-byte prefix and 994 payload bytes.
    static let layout = RecordingLayout(headerBytes: 10, unitBytes: 1000)
    static let header = Array("HEADER-01\n".utf8)
    static let prefix = Array("FRAME\n".utf8)

    /// Payload `index`: 994 bytes that differ from frame to frame.
    static func payload(_ index: Int) -> [UInt8] {
        (0..<994).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index &* 13) }
    }

    /// What a recording of `frames` payloads must contain.
    static func expected(frames: Int) -> [UInt8] {
        header + (0..<frames).flatMap { prefix + payload($0) }
    }

    /// Writes `frames` payloads through a writer into `target`, never dropping (the queue
    /// holds them all), and finishes.
    static func record(_ frames: Int, into target: any RecordingTarget) throws
        -> RecordingWriter.Summary
    {
        var options = RecordingWriter.Options()
        options.queueLimit = frames + 1
        options.syncInterval = ByteCount(64 << 10)
        let writer = try RecordingWriter(
            target: target, layout: layout, header: header, unitPrefix: prefix, unitSuffix: [],
            options: options, clock: ContinuousRunClock())
        for index in 0..<frames { #expect(writer.enqueue(payload(index)) == .queued) }
        writer.endWriting()
        return writer.writeQueued()
    }

    @Test("allocate: real blocks equal the capacity, in segments; status says so", arguments: roots)
    func allocates(root: String) throws {
        let directory = Self.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: "\(directory)/reserve")
        var steps: [ByteCount] = []
        try reserve.allocate(.mebibytes(5)) { held, _ in steps.append(held) }
        #expect(steps.first == .zero && steps.last == .mebibytes(5))
        let status = try reserve.status()
        #expect(status.isSupported)
        #expect(status.capacityBytes == .mebibytes(5))
        #expect(status.remainingBytes == .mebibytes(5))
        #expect(status.segmentBytes == .mebibytes(1))
        #expect(status.busyReasons.isEmpty)
        let segments = "\(directory)/reserve/segments"
        let names = try FileManager.default.contentsOfDirectory(atPath: segments)
        #expect(names.count == 5)
        let allocated = names.reduce(Int64(0)) { total, name in
            var info = stat()
            stat("\(segments)/\(name)", &info)
            return total + Int64(info.st_blocks) * 512
        }
        #expect(allocated == ByteCount.mebibytes(5).bytes)

        try reserve.allocate(ByteCount(3 << 19))  // shrink to 1.5 MiB
        #expect(try reserve.status().remainingBytes == ByteCount(3 << 19))
        try reserve.release()
        let released = try reserve.status()
        #expect(released.capacityBytes == .zero && released.remainingBytes == .zero)
    }

    @Test("a size over the free space is refused before anything is allocated", arguments: roots)
    func refusesOverFreeSpace(root: String) throws {
        let directory = Self.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: directory)
        let free = try reserve.status().freeBytes
        // The free space moves while other programs write, so only what was needed is compared.
        #expect {
            try reserve.allocate(free + .gibibytes(1))
        } throws: { error in
            guard case .notEnoughSpace(let needed, _) = error as? StorageError else { return false }
            return needed == free + .gibibytes(1)
        }
        #expect(throws: StorageError.self) { try reserve.allocate(.zero) }
        #expect(try reserve.status().remainingBytes == .zero)
    }

    @Test(
        "a recording uses the reserve, arrives byte for byte, and replenish restores it",
        arguments: roots)
    func recordsAndReplenishes(root: String) throws {
        let directory = Self.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: "\(directory)/reserve")
        try reserve.allocate(.mebibytes(8))
        let destination = "\(directory)/out/clip.bin"
        let recording = try ReserveRecording(
            reserve: reserve, destination: destination, layout: Self.layout)
        // Another process's view while it records: busy recording, remaining capacity lower.
        let other = try StorageReserve(directory: "\(directory)/reserve")
        let during = try other.status()
        #expect(during.busyReasons == [.recording])
        #expect(during.recordings == 1)
        #expect(during.remainingBytes < .mebibytes(8))
        #expect(throws: StorageError.busy([.recording])) { try other.allocate(.mebibytes(9)) }
        #expect(throws: StorageError.busy([.recording])) { try other.replenish() }

        let summary = try Self.record(2500, into: recording)
        #expect(summary.endReason == .finished)
        #expect(summary.frames == 2500)
        #expect(summary.remainingBytes.map { $0 < .mebibytes(6) } == true)
        #expect(summary.path == destination)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: destination))
                == Data(Self.expected(frames: 2500)))
        // The blocks allocated past the recording's end went back to the filesystem.
        var info = stat()
        stat(destination, &info)
        #expect(Int64(info.st_blocks) * 512 < Int64(Self.expected(frames: 2500).count) + (64 << 10))
        let after = try reserve.status()
        #expect(after.busyReasons.isEmpty)
        #expect(after.remainingBytes < .mebibytes(6))
        #expect(after.needsReplenishing)
        let added = try reserve.replenish()
        #expect(added > .mebibytes(2))
        #expect(try reserve.status().remainingBytes == .mebibytes(8))
        // Nothing is left in the reserve's recordings directory.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(directory)/reserve/recordings")
                .isEmpty)
    }

    @Test("a full reserve ends the recording cleanly at its last whole frame", arguments: roots)
    func fullReserveEndsCleanly(root: String) throws {
        let directory = Self.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: directory)
        try reserve.allocate(.mebibytes(2))
        let destination = "\(directory)/full.bin"
        let recording = try ReserveRecording(
            reserve: reserve, destination: destination, layout: Self.layout)
        var options = RecordingWriter.Options()
        options.queueLimit = 5000
        let writer = try RecordingWriter(
            target: recording, layout: Self.layout, header: Self.header, unitPrefix: Self.prefix,
            unitSuffix: [], options: options, clock: ContinuousRunClock())
        for index in 0..<5000 { #expect(writer.enqueue(Self.payload(index)) == .queued) }
        writer.endWriting()
        let summary = writer.writeQueued()
        #expect(summary.endReason == .notEnoughSpace)
        let frames = Int(summary.frames)
        #expect(frames > 2000 && frames < 2100)  // 2 MiB of 1000-byte frames
        let data = try Data(contentsOf: URL(fileURLWithPath: destination))
        #expect(data == Data(Self.expected(frames: frames)))
        #expect(writer.enqueue(Self.payload(0)) == .ended)
        #expect(try reserve.status().remainingBytes == .zero)
        #expect(try reserve.replenish() == .mebibytes(2))
    }

    @Test(
        "without the reserve the same writer grows a file beside the destination", arguments: roots)
    func growingFile(root: String) throws {
        let directory = Self.scratch(root)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let destination = "\(directory)/plain.bin"
        let summary = try Self.record(300, into: GrowingFileTarget(destination: destination))
        // A frame of another size is dropped, not written.
        let writer = try RecordingWriter(
            target: GrowingFileTarget(destination: "\(directory)/other.bin"), layout: Self.layout,
            header: Self.header, unitPrefix: Self.prefix, unitSuffix: [],
            clock: ContinuousRunClock())
        #expect(writer.enqueue([1, 2, 3]) == .dropped)
        writer.endWriting()
        #expect(writer.writeQueued().framesDropped == 1)
        try FileManager.default.removeItem(atPath: "\(directory)/other.bin")
        #expect(summary.endReason == .finished && summary.remainingBytes == nil)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: destination))
                == Data(Self.expected(frames: 300)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["plain.bin"])
    }

    @Test("a killed recording is cut to its last whole frame and kept beside its destination")
    func recoversWhatAKilledProcessLeft() throws {
        let directory = Self.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try StorageReserve(directory: directory)
        // What a SIGKILLed recorder leaves: its file (3.5 frames), its record, a dead token,
        // and a half-made segment.
        let written = Self.expected(frames: 4).dropLast(500)
        try Data(written).write(to: URL(fileURLWithPath: "\(directory)/recordings/dead.part"))
        try Data(
            #"{"destination":"\#(directory)/clip.y4m","layout":{"headerBytes":10,"unitBytes":1000}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: "\(directory)/recordings/dead.json"))
        try Data().write(to: URL(fileURLWithPath: "\(directory)/busy/recording.dead"))
        try Data().write(to: URL(fileURLWithPath: "\(directory)/segments/.000009.tmp"))
        // An empty one, killed before its first frame, is discarded.
        try Data(Self.header.prefix(4)).write(
            to: URL(fileURLWithPath: "\(directory)/recordings/early.part"))
        try Data(
            #"{"destination":"\#(directory)/early.y4m","layout":{"headerBytes":10,"unitBytes":1000}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: "\(directory)/recordings/early.json"))

        let reopened = try StorageReserve(directory: directory)
        let recovered = "\(directory)/clip.recovered.y4m"
        #expect(
            reopened.recovered.sorted { $0.destination < $1.destination } == [
                Recovery(
                    destination: "\(directory)/clip.y4m",
                    outcome: .finalized(path: recovered, frames: 3)),
                Recovery(destination: "\(directory)/early.y4m", outcome: .discarded),
            ])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: recovered)) == Data(Self.expected(frames: 3)))
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/clip.y4m"))
        for child in ["recordings", "busy", "segments"] {
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(child)").isEmpty
            )
        }
        #expect(Recovery.recoveredPath(for: "/a/b") == "/a/b.recovered")
    }

    @Test("a recording that cannot be moved stays in the reserve and is recovered later")
    func recoveryThatFailsIsRetried() throws {
        let directory = Self.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try StorageReserve(directory: "\(directory)/reserve")
        // Its destination's directory is a file, so nothing can be written there yet.
        try Data().write(to: URL(fileURLWithPath: "\(directory)/blocked"))
        let recordings = "\(directory)/reserve/recordings"
        try Data(Self.expected(frames: 2)).write(to: URL(fileURLWithPath: "\(recordings)/x.part"))
        try Data(
            #"{"destination":"\#(directory)/blocked/clip.y4m","layout":{"headerBytes":10,"unitBytes":1000}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: "\(recordings)/x.json"))

        let first = try StorageReserve(directory: "\(directory)/reserve")
        guard case .failed = first.recovered.first?.outcome else {
            Issue.record("expected a failed recovery, got \(first.recovered)")
            return
        }
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: recordings)) == [
                "x.part", "x.json",
            ])

        try FileManager.default.removeItem(atPath: "\(directory)/blocked")
        let second = try StorageReserve(directory: "\(directory)/reserve")
        #expect(
            second.recovered == [
                Recovery(
                    destination: "\(directory)/blocked/clip.y4m",
                    outcome: .finalized(path: "\(directory)/blocked/clip.recovered.y4m", frames: 2))
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: recordings).isEmpty)
    }

    /// Leaves in `directory`'s reserve what a killed recorder of `frames` whole frames bound
    /// for `destination` leaves, under the recording id `id`.
    static func plantKilledRecording(
        _ id: String, frames: Int, destination: String, layout: String? = nil, in directory: String
    ) throws {
        try Data(expected(frames: frames)).write(
            to: URL(fileURLWithPath: "\(directory)/recordings/\(id).part"))
        let layout = layout ?? #"{"headerBytes":10,"unitBytes":1000}"#
        try Data(#"{"destination":"\#(destination)","layout":\#(layout)}"#.utf8)
            .write(to: URL(fileURLWithPath: "\(directory)/recordings/\(id).json"))
    }

    @Test("recovery never replaces a file: two killed recordings and an old recovery all stay")
    func recoveryTakesFreeNames() throws {
        let directory = Self.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try StorageReserve(directory: directory)
        try Data("an earlier recovery".utf8).write(
            to: URL(fileURLWithPath: "\(directory)/clip.recovered.y4m"))
        try Self.plantKilledRecording(
            "one", frames: 1, destination: "\(directory)/clip.y4m", in: directory)
        try Self.plantKilledRecording(
            "two", frames: 2, destination: "\(directory)/clip.y4m", in: directory)

        let reopened = try StorageReserve(directory: directory)
        let paths = reopened.recovered.compactMap { recovery -> String? in
            if case .finalized(let path, _) = recovery.outcome { return path }
            return nil
        }
        #expect(
            Set(paths) == [
                "\(directory)/clip.recovered.1.y4m", "\(directory)/clip.recovered.2.y4m",
            ])
        #expect(
            try String(contentsOfFile: "\(directory)/clip.recovered.y4m", encoding: .utf8)
                == "an earlier recovery")
        let sizes = try Set(paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)).count })
        #expect(sizes == [Self.expected(frames: 1).count, Self.expected(frames: 2).count])
    }

    @Test("a recording's destination is stored absolute, so any directory recovers it in place")
    func recordsAbsoluteDestinations() throws {
        let directory = Self.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: "\(directory)/reserve")
        try reserve.allocate(.mebibytes(2)) { _, _ in }
        // A relative path from wherever the tests run to the scratch directory (the working
        // directory is the whole process's: tests running beside this one must not see it move).
        let here = FileManager.default.currentDirectoryPath
        let up = String(repeating: "../", count: here.split(separator: "/").count)
        let relative = up + directory.dropFirst() + "/clip.y4m"
        let recording = try ReserveRecording(
            reserve: reserve, destination: relative, layout: Self.layout)
        #expect(recording.destination == here + "/" + relative)
        let records = try FileManager.default.contentsOfDirectory(
            atPath: "\(directory)/reserve/recordings"
        ).filter { $0.hasSuffix(".json") }
        let record = try JSONSerialization.jsonObject(
            with: Data(
                contentsOf: URL(fileURLWithPath: "\(directory)/reserve/recordings/\(records[0])")))
        #expect((record as? [String: Any])?["destination"] as? String == here + "/" + relative)
        #expect(try recording.finish(length: 0) == here + "/" + relative)
        #expect(FileManager.default.fileExists(atPath: "\(directory)/clip.y4m"))
    }

    @Test("a damaged recording record is reported and kept, never a crash or a guess")
    func damagedRecords() throws {
        let directory = Self.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try StorageReserve(directory: directory)
        try Self.plantKilledRecording(
            "negative", frames: 1, destination: "\(directory)/a.y4m",
            layout: #"{"headerBytes":-9223372036854775808,"unitBytes":1000}"#, in: directory)
        try Self.plantKilledRecording(
            "relative", frames: 1, destination: "b.y4m", in: directory)
        let reopened = try StorageReserve(directory: directory)
        let problems = reopened.recovered.compactMap { recovery -> String? in
            if case .failed(let problem) = recovery.outcome { return problem }
            return nil
        }.sorted()
        #expect(problems.count == 2)
        #expect(problems[0].contains("negative.json: layout.headerBytes: expected 0 to 1048576"))
        #expect(problems[1].contains("relative.json: destination: expected an absolute path"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(directory)/recordings").count
                == 4)
        #expect(try reopened.status().isSupported)
    }

    @Test(
        "a manifest that lies is refused with its field",
        arguments: [
            (
                #"{"version":1,"capacityBytes":1048576,"segmentBytes":1}"#,
                "segmentBytes: expected 0 or 1048576 to 67108864, got 1"
            ),
            (#"{"version":99,"capacityBytes":0,"segmentBytes":0}"#, "version: expected 1"),
            (#"{"version":1,"capacityBytes":-5,"segmentBytes":0}"#, "capacityBytes: expected 0 to"),
        ])
    func lyingManifests(manifest: String, expected: String) throws {
        let directory = Self.scratch(NSTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try StorageReserve(directory: directory)
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: "\(directory)/reserve.json"))
        let error = try #require(throws: StorageError.self) {
            try StorageReserve(directory: directory).replenish { _, _ in }
        }
        #expect(error.description.contains(expected))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(directory)/segments").isEmpty)
    }
}
