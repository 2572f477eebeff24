/// A request body read as it arrives, delimited by its `Content-Length` or by chunked transfer
/// coding (RFC 9112 §7.1: chunk extensions and trailer fields are read and dropped), and kept
/// up to a limit.
struct HTTPBodyReader {
    private enum State {
        /// Bytes left of a `Content-Length` body, or of the current chunk's data.
        case data(remaining: Int, chunked: Bool)
        /// The line end after a chunk's data.
        case chunkDataEnd
        /// A chunk-size line (or, after the last chunk, a trailer line) in progress.
        case line(trailer: Bool)
        case complete
    }

    /// The body so far.
    private(set) var body: [UInt8] = []
    /// Whether the body is longer than the limit (then nothing more is kept).
    private(set) var isTooLarge = false
    private var state: State
    private var line: [UInt8] = []
    private let limit: Int

    /// The longest chunk-size or trailer line read.
    private static let lineLimit = 4096

    /// A reader of a body with `framing`, keeping at most `limit` bytes.
    init(framing: HTTPRequestHead.BodyFraming, limit: Int) {
        self.limit = limit
        switch framing {
        case .none: state = .complete
        case .length(let length): state = .data(remaining: length, chunked: false)
        case .chunked: state = .line(trailer: false)
        }
        if case .length(let length) = framing, length > limit { isTooLarge = true }
    }

    /// Whether the whole body has been read.
    var isComplete: Bool {
        if case .complete = state { true } else { false }
    }

    /// Reads what it can of `bytes` and returns how many it took (all of them unless the body
    /// ended within them).
    ///
    /// - Throws: ``HTTPRequestError`` 400 for malformed chunked coding.
    mutating func read(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .complete:
                return index - bytes.startIndex
            case .data(let remaining, let chunked):
                let count = min(remaining, bytes.endIndex - index)
                keep(bytes[index..<(index + count)])
                index += count
                state =
                    count < remaining
                    ? .data(remaining: remaining - count, chunked: chunked)
                    : chunked ? .chunkDataEnd : .complete
            case .chunkDataEnd:
                if bytes[index] == .carriageReturn, line.isEmpty {
                    line.append(.carriageReturn)
                } else if bytes[index] == .lineFeed {
                    line.removeAll()
                    state = .line(trailer: false)
                } else {
                    throw HTTPRequestError(status: 400, problem: "chunk data longer than its size")
                }
                index += 1
            case .line(let trailer):
                guard let lineFeed = bytes[index...].firstIndex(of: .lineFeed) else {
                    line.append(contentsOf: bytes[index...])
                    index = bytes.endIndex
                    guard line.count <= Self.lineLimit else {
                        throw HTTPRequestError(status: 400, problem: "a chunk line is too long")
                    }
                    continue
                }
                line.append(contentsOf: bytes[index..<lineFeed])
                index = lineFeed + 1
                if line.last == .carriageReturn { line.removeLast() }
                try endLine(trailer: trailer)
            }
        }
        return index - bytes.startIndex
    }

    /// A chunk-size line, or a trailer line, is complete in `line`.
    private mutating func endLine(trailer: Bool) throws(HTTPRequestError) {
        defer { line.removeAll() }
        guard !trailer else {
            if line.isEmpty { state = .complete }
            return
        }
        let digits = line.prefix { $0 != .semicolon }.trimmingWhitespace
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0.hexValue != nil })
        else {
            throw HTTPRequestError(status: 400, problem: "expected a chunk size in hexadecimal")
        }
        let size = digits.reduce(0) { $0 << 4 | Int($1.hexValue!) }
        state = size == 0 ? .line(trailer: true) : .data(remaining: size, chunked: true)
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        guard !isTooLarge else { return }
        guard body.count + bytes.count <= limit else {
            isTooLarge = true
            body = []
            return
        }
        body.append(contentsOf: bytes)
    }
}
