/// Splits what a program writes to its trace descriptor into lines, holding at most one
/// line's worth (``lineLimit``) whatever the program writes: a longer line is skipped up to
/// its newline and counted, never buffered.
public struct TraceLineBuffer: Sendable {
    /// The longest line kept, in bytes without its newline; a line of this size is also what
    /// one pipe write delivers whole (`PIPE_BUF`), so lines from several threads never mix.
    public static let lineLimit = 4096

    private var pending: [UInt8] = []
    private var isSkipping = false

    /// An empty buffer.
    public init() {}

    /// Feeds `bytes`, handing each complete line (without its newline) to `line` and each
    /// overlong one to `overlong`.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, line: (ArraySlice<UInt8>) -> Void, overlong: () -> Void
    ) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.endIndex
            if !isSkipping {
                if pending.count + (end - start) > Self.lineLimit {
                    isSkipping = true
                    pending.removeAll(keepingCapacity: true)
                    overlong()
                } else {
                    pending.append(contentsOf: bytes[start..<end])
                }
            }
            guard let newline else { return }
            if !isSkipping { line(pending[...]) }
            pending.removeAll(keepingCapacity: true)
            isSkipping = false
            start = newline + 1
        }
    }

    /// The unterminated last line, if any (a program that ended without a final newline).
    public mutating func finish(line: (ArraySlice<UInt8>) -> Void) {
        if !isSkipping && !pending.isEmpty { line(pending[...]) }
        pending.removeAll()
        isSkipping = false
    }
}
