#if canImport(Glibc)
    import Glibc
#endif

/// Memory for `O_DIRECT` writes: `capacity` bytes at an address that is a multiple of
/// `alignment`, allocated once, reused, and freed with the buffer.
final class AlignedBuffer: @unchecked Sendable {
    // Unchecked: an `UncachedSink` hands the buffer between its writer and its thread, and
    // never lets both touch the same bytes at once.
    /// The first byte.
    let base: UnsafeMutableRawPointer
    /// Bytes from ``base``.
    let capacity: Int

    /// Allocates `capacity` bytes aligned to `alignment` (a power of two).
    init(capacity: Int, alignment: Int) {
        var memory: UnsafeMutableRawPointer?
        let status = posix_memalign(&memory, alignment, capacity)
        guard status == 0, let memory else {
            fatalError("posix_memalign of \(capacity) bytes failed: \(status)")
        }
        base = memory
        self.capacity = capacity
    }

    deinit { free(base) }
}
