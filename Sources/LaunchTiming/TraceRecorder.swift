import Files
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a program's trace descriptor into a ``TraceAssembler``: lines split by
/// ``TraceLineBuffer``, each parsed as a ``TraceEvent`` and stamped with the time it was read
/// when it carries none; a line that is not an event is a note.
struct TraceRecorder {
    var assembler: TraceAssembler
    private var lines = TraceLineBuffer()
    private var lineNumber = 0
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init(assembler: TraceAssembler) {
        self.assembler = assembler
    }

    enum Progress {
        /// The ready event arrived.
        case ready
        /// The writers closed the pipe (or it failed).
        case closed
        /// Read what there was.
        case more
        /// Nothing to read now (a non-blocking descriptor).
        case empty
    }

    /// One `read` of `descriptor`, every complete line in it recorded.
    mutating func read(from descriptor: Int32) -> Progress {
        let count = chunk.withUnsafeMutableBytes {
            Glibc.read(descriptor, $0.baseAddress, $0.count)
        }
        if count < 0 {
            switch errno {
            case EINTR: return .more
            case EAGAIN: return .empty
            default: return .closed
            }
        }
        guard count > 0 else { return .closed }
        let stamp = Double(MonotonicClock.now().nanoseconds) / 1000
        var ready = false
        // The buffer is moved out while it feeds this recorder's own methods.
        var buffer = TraceLineBuffer()
        swap(&buffer, &lines)
        defer { swap(&buffer, &lines) }
        let chunk = self.chunk
        chunk.withUnsafeBytes { bytes in
            buffer.feed(
                UnsafeRawBufferPointer(rebasing: bytes[0..<count]),
                line: { line in
                    if record(line, at: stamp) { ready = true }
                },
                overlong: {
                    lineNumber += 1
                    assembler.note(.lineTooLong, "line \(lineNumber)")
                })
        }
        return ready ? .ready : .more
    }

    /// Records the unterminated last line, once the program has gone.
    mutating func finish() {
        let stamp = Double(MonotonicClock.now().nanoseconds) / 1000
        var buffer = TraceLineBuffer()
        swap(&buffer, &lines)
        buffer.finish { line in _ = record(line, at: stamp) }
    }

    /// Parses and adds one line; whether it was the ready event.
    private mutating func record(_ line: ArraySlice<UInt8>, at stamp: Double) -> Bool {
        lineNumber += 1
        guard !assembler.isReady, !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else {
            return false
        }
        do {
            let value = try JSONParser.parse(line)
            guard let event = try TraceEvent.parse(value, path: "", requiresTimestamp: false)
            else {
                assembler.note(.otherKind)
                return false
            }
            return assembler.add(event, receivedAt: stamp)
        } catch {
            assembler.note(.malformedLine, "line \(lineNumber): \(error.description)")
            return false
        }
    }
}
