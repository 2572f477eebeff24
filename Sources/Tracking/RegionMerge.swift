/// One frame's boxes from several regions made one list: the same person seen in two
/// overlapping regions (or in a region and the whole frame) is kept once — the view not cut by
/// a region's edge, then the surer one — and a box lying mostly inside a kept box (a part of
/// the same person) is dropped.
public enum RegionMerge {
    /// A box a region gave.
    public struct Found: Sendable, Equatable {
        /// The box, in the frame's pixels, with the network's score.
        public var detection: Detection
        /// Whether it touches an edge of its region that is not the frame's: the person may
        /// go on beyond it.
        public var isCut: Bool

        /// A box found, cut or not.
        public init(detection: Detection, isCut: Bool) {
            self.detection = detection
            self.isCut = isCut
        }
    }

    /// Boxes overlapping a kept one by more than this IoU are the same person.
    public static let sameOverlap = 0.4
    /// Boxes whose area lies more than this share inside a kept one are a part of it.
    public static let partShare = 0.7

    /// The boxes kept, whole views first, then by score.
    public static func merge(_ found: [Found]) -> [Found] {
        let ordered = found.sorted {
            ($0.isCut ? 1 : 0, -$0.detection.confidence) < (
                $1.isCut ? 1 : 0, -$1.detection.confidence
            )
        }
        var kept: [Found] = []
        for candidate in ordered {
            let box = candidate.detection.box
            let isKnown = kept.contains { other in
                let intersection = box.intersectionArea(with: other.detection.box)
                let smaller = min(box.area, other.detection.box.area)
                return box.intersectionOverUnion(with: other.detection.box) > sameOverlap
                    || (smaller > 0 && intersection / smaller > partShare)
            }
            if !isKnown { kept.append(candidate) }
        }
        return kept
    }
}
