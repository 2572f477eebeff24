import LaunchTiming
import Units

/// The most recent frames of one camera, oldest first, so that a capture requested at an
/// instant can be served with the frame of that instant even when it is served later.
public struct FrameRing: Sendable {
    /// How many frames it keeps (at least 1).
    public let capacity: Int
    private var frames: [Frame] = []
    private var start = 0

    /// An empty ring keeping the latest `capacity` frames.
    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        frames.reserveCapacity(self.capacity)
    }

    /// How many frames it holds.
    public var count: Int { frames.count }

    /// The newest frame, if any.
    public var newest: Frame? {
        frames.isEmpty ? nil : frames[(start + frames.count - 1) % frames.count]
    }

    /// Adds `frame` as the newest and returns the frame it pushed out, if the ring was full
    /// (its pixel buffer can be reused once nobody else holds it).
    @discardableResult
    public mutating func append(_ frame: Frame) -> Frame? {
        guard frames.count == capacity else {
            frames.append(frame)
            return nil
        }
        let evicted = frames[start]
        frames[start] = frame
        start = (start + 1) % capacity
        return evicted
    }

    /// The frame showing the scene at `instant`: the newest captured at or before it, or the
    /// oldest kept when `instant` is older than every frame; `nil` when the ring is empty.
    public func frame(at instant: MonotonicInstant) -> Frame? {
        var chosen: Frame?
        for offset in 0..<frames.count {
            let frame = frames[(start + offset) % frames.count]
            if frame.timestamp <= instant || chosen == nil { chosen = frame } else { break }
        }
        return chosen
    }
}
