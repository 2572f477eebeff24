import Foundation
import Testing
import Units

@Suite struct UnitsTests {
    @Test("a frame rate's interval is whole nanoseconds, and its frames follow a duration")
    func frameRates() {
        #expect(FrameRate(framesPerSecond: 30).frameInterval == .nanoseconds(33_333_333))
        #expect(FrameRate(framesPerSecond: 29.97).frameInterval == .nanoseconds(33_366_700))
        #expect(FrameRate(oneFrameEvery: .milliseconds(250)) == 4)
        #expect(FrameRate(framesPerSecond: 30).frames(in: .seconds(2)) == 60)
        #expect(FrameRate(framesPerSecond: 60) / FrameRate(framesPerSecond: 30) == 2)
        #expect(max(FrameRate(framesPerSecond: 15), 20) == 20)
        let half: FrameRate = 30.0 / 2
        #expect(half == 15)
    }

    @Test("a share is a fraction, not clamped unless asked")
    func shares() {
        let demand: Share = 1.4
        #expect(demand.percent == 140)
        #expect(demand.clamped == .whole)
        #expect(Share(fraction: -0.2).clamped == .zero)
        #expect(Share(fraction: 0.25) + 0.5 == 0.75)
        #expect(Share.whole - 0.25 == 0.75)
        let parts: [Share] = [0.1, 0.2, 0.3]
        let sum: Double = 0.1 + 0.2 + 0.3
        #expect(parts.reduce(.zero, +).fraction == sum)
        #expect(Share(fraction: 0.6) / Share(fraction: 0.3) == 2)
    }

    private struct Document: Codable, Equatable {
        var rate: FrameRate
        var share: Share
        @SecondsCoded var time: Duration
        @OptionalSecondsCoded var until: Duration?
        var at: MonotonicInstant
    }

    @Test("documents keep plain numbers, and an absent optional duration leaves its key out")
    func coding() throws {
        let document = Document(
            rate: 29.97, share: 0.5, time: .milliseconds(1500), until: nil,
            at: MonotonicInstant(secondsSinceOrigin: 12.25))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(document), as: UTF8.self)
        #expect(json == #"{"at":12.25,"rate":29.97,"share":0.5,"time":1.5}"#)
        #expect(try JSONDecoder().decode(Document.self, from: Data(json.utf8)) == document)
        var later = document
        later.until = .seconds(3)
        let withUntil = try encoder.encode(later)
        #expect(String(decoding: withUntil, as: UTF8.self).contains(#""until":3"#))
        #expect(try JSONDecoder().decode(Document.self, from: withUntil) == later)
    }

    @Test("an instant before its clock's origin or a non-finite time is refused")
    func badInstants() {
        for text in [#"{"at":-1}"#, #"{"at":1e400}"#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode([String: MonotonicInstant].self, from: Data(text.utf8))
            }
        }
    }

    @Test(
        "a duration of whole nanoseconds is exactly nanoseconds / 1e9 in seconds", arguments: 0..<8)
    func exactSeconds(seed: Int) {
        // A deterministic sweep: multiplying by a large odd constant spreads the values over
        // the range, so the property sees long and short durations and arbitrary starts.
        let bound: UInt64 = seed.isMultiple(of: 2) ? 2_000_000_001 : 1 << 50
        for step in UInt64(1)...1_000 {
            let mixed = (step &+ UInt64(seed) &* 1_000) &* 0x9E37_79B9_7F4A_7C15
            let nanoseconds = Int64(mixed % bound)
            let start = MonotonicInstant(nanoseconds: mixed >> 4)
            #expect(Duration.nanoseconds(nanoseconds).seconds == Double(nanoseconds) / 1e9)
            let end = start.advanced(by: .nanoseconds(nanoseconds))
            #expect(end.duration(since: start).seconds == end.seconds(since: start))
        }
        #expect(Duration.seconds(-1.5).seconds == -1.5)
        #expect(Duration.milliseconds(250).seconds == 0.25)
    }

    @Test("a dwell has passed only once its duration has gone by, and always before any change")
    func dwells() {
        let origin = MonotonicInstant.origin
        #expect(origin.isAtLeast(.seconds(10), after: nil))
        let later = origin.advanced(by: .seconds(9))
        #expect(!later.isAtLeast(.seconds(10), after: origin))
        #expect(later.advanced(by: .seconds(1)).isAtLeast(.seconds(10), after: origin))
    }
}
