import FoundationEssentials

/// The stand's expressive animations, as in DockKit.
public enum StandAnimation: String, Sendable, Hashable, CaseIterable, Codable {
    /// A nod: pitch down and up twice.
    case yes
    /// A shake: yaw left and right twice.
    case no
    /// Waking up: a slow look up and around.
    case wakeup
    /// A sudden recoil and return.
    case kapow

    /// The animation as a trajectory of offsets from the pose it starts at.
    public var trajectory: MotorTrajectory {
        switch self {
        case .yes:
            return MotorTrajectory(keyframes: [
                .init(time: 0, yaw: 0, pitch: 0), .init(time: 0.25, yaw: 0, pitch: -0.2),
                .init(time: 0.5, yaw: 0, pitch: 0.05), .init(time: 0.75, yaw: 0, pitch: -0.2),
                .init(time: 1.0, yaw: 0, pitch: 0),
            ])
        case .no:
            return MotorTrajectory(keyframes: [
                .init(time: 0, yaw: 0, pitch: 0), .init(time: 0.25, yaw: -0.3, pitch: 0),
                .init(time: 0.5, yaw: 0.3, pitch: 0), .init(time: 0.75, yaw: -0.3, pitch: 0),
                .init(time: 1.0, yaw: 0.3, pitch: 0), .init(time: 1.25, yaw: 0, pitch: 0),
            ])
        case .wakeup:
            return MotorTrajectory(keyframes: [
                .init(time: 0, yaw: 0, pitch: 0), .init(time: 0.8, yaw: 0, pitch: 0.25),
                .init(time: 1.6, yaw: -0.5, pitch: 0.2), .init(time: 2.4, yaw: 0.5, pitch: 0.2),
                .init(time: 3.2, yaw: 0, pitch: 0),
            ])
        case .kapow:
            return MotorTrajectory(keyframes: [
                .init(time: 0, yaw: 0, pitch: 0), .init(time: 0.15, yaw: 0.1, pitch: 0.3),
                .init(time: 0.3, yaw: 0.1, pitch: 0.3), .init(time: 1.2, yaw: 0, pitch: 0),
            ])
        }
    }
}

/// A motion as keyframes of (yaw, pitch) offsets in radians over time in seconds, linearly
/// interpolated. Played from a pose, it starts and ends there when its first and last
/// keyframes are zero offsets.
public struct MotorTrajectory: Sendable, Hashable, Codable {
    /// One keyframe.
    public struct Keyframe: Sendable, Hashable, Codable {
        /// Seconds from the start, ≥ 0, increasing.
        public var time: Double
        /// Yaw offset in radians.
        public var yaw: Double
        /// Pitch offset in radians.
        public var pitch: Double

        /// Creates a keyframe.
        public init(time: Double, yaw: Double, pitch: Double) {
            self.time = time
            self.yaw = yaw
            self.pitch = pitch
        }
    }

    /// The keyframes, by time.
    public var keyframes: [Keyframe]

    /// Creates a trajectory; keyframes are sorted by time.
    public init(keyframes: [Keyframe]) {
        self.keyframes = keyframes.sorted { $0.time < $1.time }
    }

    /// The length in seconds.
    public var duration: Double { keyframes.last?.time ?? 0 }

    /// The offset at `time` seconds (held at the ends).
    public func offset(at time: Double) -> (yaw: Double, pitch: Double) {
        guard let first = keyframes.first, let last = keyframes.last else { return (0, 0) }
        if time <= first.time { return (first.yaw, first.pitch) }
        if time >= last.time { return (last.yaw, last.pitch) }
        let next = keyframes.firstIndex { $0.time > time } ?? keyframes.count - 1
        let a = keyframes[next - 1]
        let b = keyframes[next]
        let fraction = (time - a.time) / max(b.time - a.time, 1e-9)
        return (a.yaw + (b.yaw - a.yaw) * fraction, a.pitch + (b.pitch - a.pitch) * fraction)
    }

    /// The offset's velocity at `time`, radians per second.
    public func velocity(at time: Double) -> (yaw: Double, pitch: Double) {
        guard keyframes.count > 1, time >= 0, time < duration else { return (0, 0) }
        let next = keyframes.firstIndex { $0.time > time } ?? keyframes.count - 1
        let a = keyframes[max(0, next - 1)]
        let b = keyframes[next]
        let span = max(b.time - a.time, 1e-9)
        return ((b.yaw - a.yaw) / span, (b.pitch - a.pitch) / span)
    }
}
