/// Where a region detector looks in one frame: squares of the frame, each sized so that the
/// people expected in it fill a good part of the network's input (a far person's square is
/// small and enlarged onto the input; a near one's large and shrunk), placed greedily to cover
/// as many of the expected people as the budget of network calls allows.
public struct RegionPlan: Sendable, Equatable {
    /// A part of the frame, in whole pixels.
    public struct Region: Hashable, Sendable {
        /// Left column.
        public var x: Int
        /// Top row.
        public var y: Int
        /// Columns.
        public var width: Int
        /// Rows.
        public var height: Int

        /// A region at (`x`, `y`) of `width` × `height` pixels.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// Whether `box` lies inside, within `slack` pixels.
        func contains(_ box: BoundingBox, slack: Double = 2) -> Bool {
            box.minX >= Double(x) - slack && box.minY >= Double(y) - slack
                && box.maxX <= Double(x + width) + slack && box.maxY <= Double(y + height) + slack
        }
    }

    /// Something the detector should look at: a person the tracker expects, or motion.
    public struct Target: Sendable, Equatable {
        /// Where it is (or is expected), in pixels.
        public var box: BoundingBox
        /// How tall a person there stands, in pixels: the track's height, or the height the
        /// ``PersonHeightModel`` expects at the motion's foot row.
        public var personHeight: Double
        /// How much covering it is worth: a tracked person more than motion.
        public var weight: Double

        /// A target at `box`, of a person `personHeight` pixels tall, worth `weight`.
        public init(box: BoundingBox, personHeight: Double, weight: Double) {
            self.box = box
            self.personHeight = personHeight
            self.weight = weight
        }
    }

    /// How the plan sizes its squares.
    public struct Sizing: Sendable, Equatable {
        /// A square's side over the height of the people it is for: at 3 a person fills a
        /// third of the network's input whatever their size in the frame.
        public var sidePerPersonHeight = 3.0
        /// The smallest side, in pixels: the most a square is enlarged onto a 300 × 300 input
        /// is 300 / this.
        public var minimumSide = 160
        /// How much larger than its own square one a target may sit in and still count as
        /// covered (its people are then smaller on the input).
        public var largestEnlargement = 1.6

        /// The sizing measured best on real pedestrians (docs/run.md).
        public init() {}
    }

    /// The regions, the whole frame first when it is looked at.
    public var regions: [Region]
    /// Whether the whole frame is among them.
    public var looksAtWholeFrame: Bool

    /// The plan for a `width` × `height` frame: the whole frame when `wholeFrame` (it takes
    /// one call of the budget) or when there is nothing to look at, then squares for
    /// `targets`, at most `budget` regions in all. Targets are covered by weight: each square
    /// is placed on the uncovered target whose square covers the most weight of others.
    public init(
        width: Int, height: Int, targets: [Target], budget: Int, wholeFrame: Bool,
        sizing: Sizing = Sizing()
    ) {
        let whole = Region(x: 0, y: 0, width: width, height: height)
        looksAtWholeFrame = wholeFrame || targets.isEmpty
        regions = looksAtWholeFrame ? [whole] : []
        let largest = min(width, height)
        func side(for target: Target) -> Int {
            let wanted = Int((sizing.sidePerPersonHeight * target.personHeight).rounded())
            return min(largest, max(sizing.minimumSide, wanted))
        }
        func square(around target: Target) -> Region {
            let box = target.box
            let side = min(
                largest, max(side(for: target), Int((max(box.width, box.height) * 1.2).rounded())))
            let x = min(max(0, Int((box.centerX - Double(side) / 2).rounded())), width - side)
            let y = min(max(0, Int((box.centerY - Double(side) / 2).rounded())), height - side)
            return Region(x: x, y: y, width: side, height: side)
        }
        func covers(_ region: Region, _ target: Target) -> Bool {
            region.contains(target.box)
                && Double(region.width) <= sizing.largestEnlargement * Double(side(for: target)) + 1
        }
        var uncovered = Array(targets.indices)
        while !uncovered.isEmpty, regions.count < budget {
            var best: (worth: Double, region: Region, covered: [Int])?
            for index in uncovered {
                let region = square(around: targets[index])
                var covered = uncovered.filter { covers(region, targets[$0]) }
                if covered.isEmpty { covered = [index] }
                let worth = covered.reduce(0) { $0 + targets[$1].weight }
                if best == nil || worth > best!.worth { best = (worth, region, covered) }
            }
            guard let best else { break }
            regions.append(best.region)
            uncovered.removeAll { best.covered.contains($0) }
        }
    }
}
