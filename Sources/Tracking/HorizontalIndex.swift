/// Boxes sorted by their left edge, to find those that reach into a range of x without looking
/// at every box: what keeps the tracker's association near linear in the number of people
/// (a pair of boxes that do not overlap across x has no IoU to weigh).
struct HorizontalIndex {
    /// The boxes' positions in the caller's list, by left edge.
    private let order: [Int]
    private let left: [Double]
    private let right: [Double]
    /// The widest box's width: a box reaching into a range starts at most this far before it.
    private let widest: Double

    /// Indexes `boxes`.
    init(_ boxes: [BoundingBox]) {
        order = boxes.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        left = order.map { boxes[$0].minX }
        right = order.map { boxes[$0].maxX }
        widest = boxes.map(\.width).max() ?? 0
    }

    /// The positions of the boxes whose x extent meets `low...high`, in left-edge order.
    func overlapping(_ low: Double, _ high: Double) -> [Int] {
        // The first box that could reach `low`: left edge at least `low − widest`.
        var start = 0
        var end = left.count
        while start < end {
            let middle = (start + end) / 2
            if left[middle] < low - widest { start = middle + 1 } else { end = middle }
        }
        var found: [Int] = []
        var position = start
        while position < left.count && left[position] <= high {
            if right[position] >= low { found.append(order[position]) }
            position += 1
        }
        return found
    }
}
