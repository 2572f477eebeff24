import Units

/// The run's time at one rung of its inference ladder, on the run's clock: how long it ran
/// there, over how many frames, with how many detector and network calls.
public struct RunRung: Hashable, Sendable, Codable {
    /// The rung.
    public var setting: InferenceSetting
    /// The time spent at it, frame intervals summed (`seconds` in the JSON).
    @SecondsCoded public var time: Duration
    /// Frames processed at it.
    public var frames: Int
    /// Detector runs at it.
    public var detectorCalls: Int
    /// Network runs at it (one a region looked at); nil for a detector without a network.
    public var networkCalls: Int?

    /// A rung not yet run at.
    public init(setting: InferenceSetting) {
        self.setting = setting
        time = .zero
        frames = 0
        detectorCalls = 0
        networkCalls = nil
    }

    /// Network calls a frame at this rung (detector calls for a detector without a network).
    public var callsPerFrame: Double {
        Double(networkCalls ?? detectorCalls) / Double(max(1, frames))
    }

    private enum CodingKeys: String, CodingKey {
        case setting, frames, detectorCalls, networkCalls
        case time = "seconds"
    }
}

extension [RunRung] {
    /// Counts one frame at `setting`, `interval` after the one before, with or without a
    /// detector run and with `networkCalls` network runs (nil: no network).
    mutating func record(
        _ setting: InferenceSetting, interval: Duration, ranDetector: Bool, networkCalls: Int?
    ) {
        let index: Int
        if let found = lastIndex(where: { $0.setting == setting }) {
            index = found
        } else {
            append(RunRung(setting: setting))
            index = endIndex - 1
        }
        self[index].time += interval
        self[index].frames += 1
        if ranDetector { self[index].detectorCalls += 1 }
        if let networkCalls {
            self[index].networkCalls = (self[index].networkCalls ?? 0) + networkCalls
        }
    }
}
