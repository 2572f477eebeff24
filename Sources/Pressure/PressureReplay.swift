import Units

/// Something that consumes classified readings in time order (the replay's printer, the
/// governor's replay); plug it into ``PressureReplay/run(_:classifier:consumer:)``.
public protocol PressureReadingConsumer {
    /// Takes the next reading.
    mutating func consume(_ reading: PressureReading)
}

/// Runs samples (usually a replayed trace) through a classifier as fast as possible and
/// summarises the levels they produce.
public enum PressureReplay {
    /// What a replay produced.
    public struct Summary: Hashable, Sendable, Codable {
        /// Samples classified.
        public var samples: Int
        /// Every change of the overall level (without the full reading).
        public var changes: [Change]
        /// Seconds spent at each level (by level name), from each sample to the next.
        public var secondsAtLevel: [String: Double]
        /// The most severe level reached.
        public var worstLevel: PressureLevel
        /// The smallest sustainable budget share seen, 0…1.
        public var minimumSustainableShare: Share
        /// Whether the replayed values are simulated (always true for a replay).
        public var simulated: Bool

        /// One level change.
        public struct Change: Hashable, Sendable, Codable {
            /// When, on the trace's clock (seconds since its origin in JSON).
            public var time: MonotonicInstant
            /// The level before.
            public var from: PressureLevel
            /// The level after.
            public var to: PressureLevel
            /// The most severe factor's explanation.
            public var reason: String
        }
    }

    /// Classifies every sample of `source` in order, handing each reading to `consumer`.
    public static func run(
        _ source: any SampleSource, classifier: inout PressureClassifier,
        consumer: inout some PressureReadingConsumer
    ) -> Summary {
        var summary = Summary(
            samples: 0, changes: [], secondsAtLevel: [:], worstLevel: .nominal,
            minimumSustainableShare: 1, simulated: true)
        var previous: PressureReading?
        while let sample = source.sample(at: previous?.time ?? .origin) {
            let reading = classifier.classify(sample)
            consumer.consume(reading)
            summary.samples += 1
            summary.worstLevel = max(summary.worstLevel, reading.level)
            summary.minimumSustainableShare = min(
                summary.minimumSustainableShare, reading.sustainableShare)
            summary.simulated = summary.simulated && reading.simulated
            if let previous {
                summary.secondsAtLevel[previous.level.name, default: 0] +=
                    reading.time.duration(since: previous.time).seconds
            }
            if reading.level != (previous?.level ?? .nominal) {
                summary.changes.append(
                    .init(
                        time: reading.time, from: previous?.level ?? .nominal, to: reading.level,
                        reason: reading.factors.first?.detail ?? "no factors"))
            }
            previous = reading
        }
        return summary
    }
}
