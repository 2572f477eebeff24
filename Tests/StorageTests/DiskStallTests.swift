import Foundation
import Locking
import Testing
import Units

@testable import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// A disk that stalls (its writes, or the journal a segment claim waits for) costs a recording
/// memory, never the writer's time: the ring grows and the claims run ahead on threads of their
/// own. The stalls are held still by gates, so nothing here depends on timing.
struct DiskStallTests {
    /// A scratch file, open for reading and writing, removed when the test ends.
    final class ScratchFile {
        let path = NSTemporaryDirectory() + "headroom-stall-\(UUID().uuidString)"
        let descriptor: Int32

        init() {
            descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        var contents: Data { FileManager.default.contents(atPath: path) ?? Data() }
    }

    /// Unit `index`: a mebibyte of its own byte.
    static func unit(_ index: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 1 << 20)
    }

    @Test(
        "while the disk stalls the ring grows instead of making the writer wait, and gives the memory back once it has caught up"
    )
    func ringGrowsWhileTheDiskStalls() throws {
        let file = ScratchFile()
        let gate = Completion<Bool>()
        var options = RecordingWriter.Options()
        options.ringLimit = .mebibytes(64)
        let sink = UncachedSink(
            descriptor: file.descriptor, unitBytes: 1 << 20, options: options
        ) { descriptor, bytes, count, offset in
            _ = gate.wait()
            return pwrite(descriptor, bytes, count, offset)
        }
        let buffer = ByteCount.mebibytes(2)
        #expect(sink.heldBytes == ByteCount(buffer.bytes * Int64(UncachedSink.depth)))
        // Not one write gets through: 40 units fill 20 buffers, each a new one past the eight.
        for index in 0..<40 { try sink.append([Self.unit(index)]) }
        #expect(sink.heldBytes == ByteCount(buffer.bytes * 20))
        #expect(sink.writtenBytes == 0)

        gate.complete(true)
        let appended = Int64(40 << 20)
        while sink.writtenBytes < appended { usleep(1000) }
        // Caught up: the next buffers taken give the extra ones back.
        for index in 40..<44 { try sink.append([Self.unit(index)]) }
        #expect(sink.heldBytes == ByteCount(buffer.bytes * Int64(UncachedSink.depth)))
        try sink.finish()
        #expect(sink.peakBytes == ByteCount(buffer.bytes * 20))
        #expect(file.contents == Data((0..<44).flatMap(Self.unit)))
    }

    /// Segment claims over a made-up reserve of `segments` segments of a mebibyte, each claim
    /// held at `gate` when one is given; the ends claimed at, in order.
    final class Claims: Sendable {
        let claimedAt = LockedState<[Int64]>([])
        let claims: SegmentClaims

        init(
            segments: Int, gate: Completion<Bool>? = nil, failingAt failing: Int64? = nil
        ) {
            let claimedAt = claimedAt
            claims = SegmentClaims(ahead: 2 << 20) { end throws(StorageError) in
                if end > 0 { _ = gate?.wait() }
                if end == failing {
                    throw .system(path: "reserve", operation: "allocate", error: "journal aborted")
                }
                return claimedAt.withLock { claimed -> (ByteCount, ByteCount)? in
                    guard claimed.count < segments else { return nil }
                    claimed.append(end)
                    return (.mebibytes(1), .mebibytes(Int64(segments - claimed.count)))
                }
            }
        }
    }

    @Test("claims run two segments ahead of what is asked for, until the reserve runs out")
    func claimsRunAhead() throws {
        let fixture = Claims(segments: 6)
        defer { fixture.claims.stop() }
        #expect(try fixture.claims.prepare(through: 1))
        #expect(try fixture.claims.prepare(through: 3 << 20))
        // Asked through 3 MiB, it goes on to 5 MiB by itself.
        while fixture.claims.allocated.end < 5 << 20 { usleep(1000) }
        #expect(fixture.claimedAt.withLock { $0 } == [0, 1, 2, 3, 4].map { Int64($0) << 20 })
        #expect(fixture.claims.allocated.free == .mebibytes(1))
        #expect(try fixture.claims.prepare(through: 6 << 20))
        #expect(try !fixture.claims.prepare(through: (6 << 20) + 1))
        #expect(fixture.claims.allocated.end == 6 << 20)
    }

    @Test("a claim under way holds up only a write past what is claimed")
    func aClaimUnderWayHoldsUpNothingClaimed() throws {
        let gate = Completion<Bool>()
        let fixture = Claims(segments: 8, gate: gate)
        #expect(try fixture.claims.prepare(through: 1))
        // The thread is in the second claim, held at the gate; the first segment is there.
        #expect(try fixture.claims.prepare(through: 1 << 20))
        #expect(fixture.claims.allocated.end == 1 << 20)
        gate.complete(true)
        #expect(try fixture.claims.prepare(through: 2 << 20))
        fixture.claims.stop()
    }

    @Test("a failed claim stops the claims, and is thrown to the write that needed it")
    func aFailedClaimIsThrownWhereItIsNeeded() throws {
        let fixture = Claims(segments: 8, failingAt: 2 << 20)
        defer { fixture.claims.stop() }
        #expect(try fixture.claims.prepare(through: 2 << 20))
        #expect(
            throws: StorageError.system(
                path: "reserve", operation: "allocate", error: "journal aborted")
        ) { try fixture.claims.prepare(through: 3 << 20) }
        #expect(fixture.claims.allocated.end == 2 << 20)
    }
}
