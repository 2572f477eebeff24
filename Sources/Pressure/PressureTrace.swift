import Files
import Units

/// A recorded pressure trace: JSON lines, one ``PressureSample`` per line, time in seconds
/// from the start of the recording.
public struct PressureTrace: Hashable, Sendable {
    /// The samples, in time order.
    public var samples: [PressureSample]

    /// A trace of `samples`.
    public init(samples: [PressureSample]) {
        self.samples = samples
    }

    /// The JSON-lines text of the trace.
    public func jsonLines() -> String {
        samples.map { sample in
            String(decoding: JSONStyle.line.encodeExplainingFailure(sample), as: UTF8.self) + "\n"
        }.joined()
    }

    /// Writes the trace atomically to `path`.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when it cannot be written.
    public func write(to path: String) throws(ConfigurationError) {
        try AtomicFile.write(jsonLines(), to: path)
    }

    /// The largest trace file read: about a day of samples at 1 Hz.
    public static let maximumFileSize = 256 << 20

    /// Reads and validates a trace file: JSON lines with LF or CRLF ends, with or without a
    /// UTF-8 byte-order mark, at most ``maximumFileSize`` bytes.
    ///
    /// - Throws: ``ConfigurationError`` naming the file, the line (`line 3`) and field for
    ///   invalid JSON, unknown keys, missing values and times that go backwards.
    public static func read(from path: String) throws(ConfigurationError) -> PressureTrace {
        let data = try InputFile.read(path, limit: Self.maximumFileSize)
        var samples: [PressureSample] = []
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // `isNewline` splits at "\n" and at "\r\n", which Swift treats as one character.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated()
        where !line.trimmingWhitespace().isEmpty {
            let location = "line \(index + 1)"
            let sample: PressureSample
            do throws(ConfigurationError) {
                sample = try decodeStrictly(PressureSample.self, from: line.utf8, file: path)
            } catch {
                throw ConfigurationError(
                    file: path, path: error.path.isEmpty ? location : "\(location): \(error.path)",
                    problem: error.problem)
            }
            if let last = samples.last, sample.time < last.time {
                throw ConfigurationError(
                    file: path, path: "\(location): time",
                    problem:
                        "expected a time ≥ \(last.time.secondsSinceOrigin) (times must not go backwards), got \(sample.time.secondsSinceOrigin)"
                )
            }
            samples.append(sample)
        }
        guard !samples.isEmpty else {
            throw ConfigurationError(
                file: path, path: "", problem: "expected at least one sample, got none")
        }
        return PressureTrace(samples: samples)
    }
}
