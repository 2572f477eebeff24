/// Boxes sorted by their left edge, to find those that reach into a range of x without looking
/// at every box: what keeps the tracker's association near linear in the number of people
/// (a pair of boxes that do not overlap across x has no IoU to weigh).
struct HorizontalIndex {
    /// One box: its position in the caller's list and its x extent.
    private struct Entry {
        var position: Int
        var left: Double
        var right: Double
    }

    /// The boxes, by left edge.
    private let entries: [Entry]
    /// The widest box's width: a box reaching into a range starts at most this far before it.
    private let widest: Double

    /// Indexes the `count` boxes `box(0)`, `box(1)`, … (no list of them is made).
    init(count: Int, box: (Int) -> BoundingBox) {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var widest = 0.0
        for position in 0..<count {
            let box = box(position)
            entries.append(Entry(position: position, left: box.minX, right: box.maxX))
            widest = max(widest, box.width)
        }
        entries.sort { $0.left < $1.left }
        self.entries = entries
        self.widest = widest
    }

    /// Calls `body` with the position of each box whose x extent meets `low...high`, in
    /// left-edge order (no list is made: the tracker asks once per track and stage).
    func forEachOverlapping(_ low: Double, _ high: Double, _ body: (Int) -> Void) {
        // The first box that could reach `low`: left edge at least `low − widest`.
        var start = 0
        var end = entries.count
        while start < end {
            let middle = (start + end) / 2
            if entries[middle].left < low - widest { start = middle + 1 } else { end = middle }
        }
        var index = start
        while index < entries.count && entries[index].left <= high {
            if entries[index].right >= low { body(entries[index].position) }
            index += 1
        }
    }
}
