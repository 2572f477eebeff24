import Capture
import Files
import Foundation
import Governor
import HostService
import LaunchTiming
import Pressure
import Reports
import Storage
import Telemetry
import TestSupport
import Testing
import Tracking
import Units

/// A seeded mutation fuzzer over the parsers users feed files to and the HTTP request path:
/// each input from `Tests/Corpus` is mutated (bit flips, deletions, duplications, splices,
/// tokens that broke parsers before) and parsed again. The property is the contract: every
/// input ends in a value or in the parser's own error naming what was wrong, never a trap,
/// a hang or another error type. A crash found becomes a regression test beside the parser.
///
/// `HEADROOM_FUZZ_ITERATIONS` (default 3000 per target) and `HEADROOM_FUZZ_SEED` (default 1)
/// run it longer or elsewhere: `HEADROOM_FUZZ_ITERATIONS=1000000 swift test --filter Fuzz`.
@Suite struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let iterations = environment["HEADROOM_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 3000
    static let seed = environment["HEADROOM_FUZZ_SEED"].flatMap(UInt64.init) ?? 1

    /// The files of `Tests/Corpus/<kind>`.
    static func corpus(_ kind: String) throws -> [[UInt8]] {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/\(kind)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map {
            [UInt8](try Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    /// Runs `body` on `iterations` mutations of the corpus.
    static func fuzz(_ kind: String, _ body: ([UInt8]) throws -> Void) throws {
        let seeds = try corpus(kind)
        try #require(!seeds.isEmpty)
        var mutator = Mutator(seed: seed)
        for seedInput in seeds { try body(seedInput) }
        for _ in 0..<iterations {
            try body(mutator.mutate(seeds))
        }
    }

    @Test func sessionAndProfileJSON() throws {
        try Self.fuzz("session") { bytes in
            let data = Data(bytes)
            do throws(ConfigurationError) {
                _ = try SessionConfiguration.decode(data, file: "fuzz.json")
            } catch {
                #expect(!error.problem.isEmpty)
            }
            do throws(ConfigurationError) {
                _ = try DeviceProfile.decode(data, file: "fuzz.json")
            } catch {
                #expect(!error.problem.isEmpty)
            }
        }
    }

    @Test func v4l2FormatListings() throws {
        try Self.fuzz("v4l2") { bytes in
            do throws(ConfigurationError) {
                let list = try V4L2FormatList(parsing: String(decoding: bytes, as: UTF8.self))
                #expect(!list.formats.isEmpty)
                #expect(list.formats.allSatisfy { $0.minFrameRate <= $0.maxFrameRate })
            } catch {
                #expect(!error.problem.isEmpty)
            }
        }
    }

    @Test func motFiles() throws {
        try Self.fuzz("mot") { bytes in
            do throws(MOTFormatError) {
                let records = try MOTFile.parse(String(decoding: bytes, as: UTF8.self), file: "f")
                #expect(!records.isEmpty)
                #expect(records.allSatisfy { $0.frame >= 1 && $0.frame <= MOTFile.maximumFrame })
            } catch {
                #expect(error.file == "f")
            }
        }
    }

    @Test func pressureTraceLines() throws {
        try Self.fuzz("trace") { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline).prefix(4) {
                do throws(ConfigurationError) {
                    _ = try decodeStrictly(PressureSample.self, from: Data(line.utf8), file: "t")
                } catch {
                    #expect(error.file == "t")
                }
            }
        }
    }

    @Test func y4mHeaders() throws {
        try Self.fuzz("y4m") { bytes in
            let line = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).first ?? []
            do throws(Y4MHeader.Problem) {
                let header = try Y4MHeader(line: line)
                let sides = 1...CameraFormat.maximumDimension
                #expect(sides.contains(header.width) && sides.contains(header.height))
                #expect(header.frameRate.map { Y4MHeader.frameRates.contains($0) } ?? true)
                #expect(header.frameBytes > 0)
            } catch {
                #expect(!error.problem.isEmpty)
            }
        }
    }

    /// Launch reports are files Headroom writes and reads back (`import`, `report --from`):
    /// whatever decodes also renders, in every format.
    @Test func launchReports() throws {
        try Self.fuzz("launch") { bytes in
            do throws(ConfigurationError) {
                let report = try LaunchReport.decode(Data(bytes), file: "r.json")
                #expect(report.phases.allSatisfy { (0...64).contains($0.depth) })
                for format in LaunchReportFormat.allCases { _ = format.render(report) }
            } catch {
                #expect(error.file == "r.json")
            }
        }
    }

    /// A reserve's manifest and recording records: opening the reserve recovers and reports,
    /// or refuses with a storage error; it never traps, and never makes files from a lie.
    ///
    /// A record names where its recording is recovered to, so the corpus says `/SCRATCH` for
    /// the test's own directory, and a recording to recover is left beside a mutated record
    /// only while its destination still lies inside that directory: the fuzzer must never
    /// write wherever a mutation points (it once made dozens of files in `/`).
    @Test func reserveFiles() throws {
        let directory = NSTemporaryDirectory() + "headroom-fuzz-reserve-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try StorageReserve(directory: directory)
        let recordings = "\(directory)/recordings"
        var index = 0
        try Self.fuzz("reserve") { bytes in
            index += 1
            let text = String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: "/SCRATCH", with: directory)
            let isRecord = index % 2 == 1
            let name = isRecord ? "recordings/r.json" : "reserve.json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
            if isRecord && Self.staysInside(directory, destinationIn: text) {
                try Data(repeating: 7, count: index % 3000).write(
                    to: URL(fileURLWithPath: "\(recordings)/r.part"))
            }
            do throws(StorageError) {
                _ = try StorageReserve(directory: directory).status()
            } catch {
                #expect(!error.description.isEmpty)
            }
            try? FileManager.default.removeItem(atPath: "\(directory)/reserve.json")
            for leftover in (try? FileManager.default.contentsOfDirectory(atPath: recordings)) ?? []
            {
                try? FileManager.default.removeItem(atPath: "\(recordings)/\(leftover)")
            }
            #expect(
                (try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/segments"))?
                    .isEmpty ?? true)
        }
    }

    /// Whether `text` is a JSON object whose `destination` is a plain path inside `directory`
    /// (anything the recovery could move a recording to outside it is not).
    static func staysInside(_ directory: String, destinationIn text: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
            let destination = (object as? [String: Any])?["destination"] as? String
        else { return false }
        return destination.hasPrefix(directory + "/") && !destination.contains("..")
            && !destination.contains("\0")
    }

    /// The v1 API's request bodies, through the routes as the server calls them: every body
    /// ends in an answer (a 400 naming the field for what is wrong), never a trap.
    @Test func serviceRequestBodies() throws {
        let metrics = try HeadroomMetrics()
        let service = HostService(
            configuration: HostGovernorConfiguration(processorCount: 2),
            clock: ManualClock(start: 0),
            catalog: ProfileCatalog(calibratedDirectory: nil),
            metrics: metrics, events: EventLog())
        let routes = ServiceRoutes(
            service: service,
            metrics: MetricsEndpoint(registry: metrics.registry, status: { nil }), token: nil)
        var index = 0
        try Self.fuzz("service") { bytes in
            index += 1
            let path = ["/v1/clients", "/v1/estimate", "/v1/clients/1/report"][index % 3]
            let answer = routes.respond(
                to: HTTPRequest(
                    method: "POST", path: path, headers: [:], body: bytes, isLocal: true))
            guard case .response(let response) = answer else {
                Issue.record("POST \(path) answered with a stream")
                return
            }
            #expect((200..<500).contains(response.status))
            if response.status == 201 {
                // Keep the host from filling up: a registered client leaves again.
                let id = (try? JSONSerialization.jsonObject(with: Data(response.body)))
                    .flatMap { ($0 as? [String: Any])?["id"] }
                _ = routes.respond(
                    to: HTTPRequest(
                        method: "DELETE", path: "/v1/clients/\(id ?? "")", headers: [:], body: [],
                        isLocal: true))
            }
        }
    }

    @Test func httpRequestPaths() throws {
        let endpoint = MetricsEndpoint(
            registry: MetricsRegistry(), status: { PressureStatus(level: 0) })
        let methods = ["GET", "HEAD", "POST", "DELETE", "", "G\u{0}T"]
        var index = 0
        try Self.fuzz("http") { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            for path in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(3) {
                index += 1
                let response = endpoint.response(
                    method: methods[index % methods.count], path: String(path),
                    accept: index % 3 == 0 ? String(path) : nil)
                #expect((200..<600).contains(response.status))
            }
        }
    }
}

/// Byte-level mutations, deterministic for a seed.
struct Mutator {
    private var generator: SeededGenerator

    /// Tokens that broke parsers before: huge and tiny numbers, fractions in integer fields,
    /// duplicate keys' punctuation, line ends, a byte-order mark, deep nesting.
    static let tokens: [[UInt8]] = [
        "1e19", "1e-300", "1.5", "1e30", "-1", "9223372036854775808", "1e400", "nan", "\"",
        "{", "}", "[", "]", ",", ":", "null", "true", "\r\n", "\u{FEFF}", "\\u0000", "\\ud800",
        "0x10", "100000000", String(repeating: "[", count: 300), "\"profile\": 1,",
    ].map { Array($0.utf8) }

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(generator.next() % UInt64(bound))
    }

    /// One to four mutations of a corpus input.
    mutating func mutate(_ corpus: [[UInt8]]) -> [UInt8] {
        var bytes = corpus[below(corpus.count)]
        for _ in 0...below(4) {
            let position = below(bytes.count + 1)
            switch below(6) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] ^= UInt8(1 << below(8))
            case 1 where !bytes.isEmpty:
                let end = min(bytes.count, position + 1 + below(16))
                bytes.removeSubrange(min(position, end)..<end)
            case 2:
                let end = min(bytes.count, position + below(32))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 3:
                let other = corpus[below(corpus.count)]
                let start = below(other.count)
                bytes.insert(
                    contentsOf: other[start..<min(other.count, start + below(64))], at: position)
            default:
                bytes.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: position)
            }
        }
        return bytes
    }
}
