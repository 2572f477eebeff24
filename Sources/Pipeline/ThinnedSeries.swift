/// A time series that keeps at most ``capacity`` values however long it runs: when it is full,
/// every other kept value is dropped and from then on only every second value offered is kept
/// (then every fourth, …), so what is kept stays evenly spread over the whole run. A day of
/// half-second samples keeps as many as twenty minutes do, at a coarser step.
struct ThinnedSeries<Element> {
    /// The most values kept.
    let capacity: Int
    /// The values kept, oldest first.
    private(set) var values: [Element] = []
    /// Values offered so far.
    private(set) var offered = 0
    /// One value in `step` offered is kept.
    private(set) var step = 1

    /// An empty series keeping at most `capacity` values (at least 2).
    init(capacity: Int) {
        self.capacity = max(2, capacity)
        values.reserveCapacity(self.capacity)
    }

    /// Offers the next value: kept when it falls on the current step.
    mutating func append(_ value: Element) {
        defer { offered += 1 }
        guard offered % step == 0 else { return }
        if values.count == capacity {
            // Keep the values at even positions: those offered at multiples of twice the step.
            values = values.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            step *= 2
            guard offered % step == 0 else { return }
        }
        values.append(value)
    }

    /// The last value kept.
    var last: Element? { values.last }
}
