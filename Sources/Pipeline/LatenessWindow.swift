import Units

/// The frame loop's count of frames that missed their deadline — processed after the next
/// frame was due, or dropped — over windows of ``length`` on the run's clock. Each closed
/// window's late share is what the pipeline tells its governor, as a remote client reports
/// its own lateness.
struct LatenessWindow {
    /// How long a window lasts (as long as a progress period).
    static let length = PipelineRun.samplePeriod
    private var start: MonotonicInstant?
    private var due = 0
    private var late = 0

    /// Counts a frame processed at `now` (late or not) and the `dropped` frames skipped before
    /// it; the window's late share when this frame closed it.
    mutating func count(isLate: Bool, dropped: Int, at now: MonotonicInstant) -> Share? {
        let start = self.start ?? now
        self.start = start
        due += 1 + dropped
        late += (isLate ? 1 : 0) + dropped
        guard now.duration(since: start) >= Self.length else { return nil }
        defer {
            self.start = now
            due = 0
            late = 0
        }
        return Share(fraction: Double(late) / Double(due))
    }
}
