import Files
import Foundation

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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return samples.map { sample in
            // Encoding plain value types cannot fail.
            String(decoding: (try? encoder.encode(sample)) ?? Data(), as: UTF8.self) + "\n"
        }.joined()
    }

    /// Writes the trace atomically to `path`.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when it cannot be written.
    public func write(to path: String) throws(ConfigurationError) {
        try AtomicFile.write(jsonLines(), to: path)
    }

    /// Reads and validates a trace file.
    ///
    /// - Throws: ``ConfigurationError`` naming the file, the line (`line 3`) and field for
    ///   invalid JSON, unknown keys, missing values and times that go backwards.
    public static func read(from path: String) throws(ConfigurationError) -> PressureTrace {
        let data = try readConfigurationFile(path)
        var samples: [PressureSample] = []
        let lines = String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let location = "line \(index + 1)"
            let sample: PressureSample
            do throws(ConfigurationError) {
                sample = try decodeStrictly(PressureSample.self, from: Data(line.utf8), file: path)
            } catch {
                throw ConfigurationError(
                    file: path, path: error.path.isEmpty ? location : "\(location): \(error.path)",
                    problem: error.problem)
            }
            if let last = samples.last, sample.time < last.time {
                throw ConfigurationError(
                    file: path, path: "\(location): time",
                    problem:
                        "expected a time ≥ \(last.time) (times must not go backwards), got \(sample.time)"
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
