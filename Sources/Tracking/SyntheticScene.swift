import FoundationEssentials
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// A seeded, reproducible world of people walking around a stand, meeting and occluding each
/// other. Positions are world directions (yaw, pitch in radians) and distances (metres) from
/// the stand; ``FrameRenderer`` turns them into pixels for a given camera pose.
public struct SyntheticScene: Sendable {
    /// One person: where they are, where they go, how they look.
    public struct Person: Sendable, Hashable {
        /// The ground-truth id, ≥ 1.
        public var id: Int
        /// The direction from the stand, in radians.
        public var yaw: Double
        /// The distance from the stand, in metres.
        public var distance: Double
        /// The grey level of the upper body (the whole body in the uniform style), 125...245;
        /// the background stays below 100.
        public var shade: UInt8
        /// The grey level of the lower body (legs); equal to ``shade`` in the uniform style.
        public var lowerShade: UInt8
        /// The body's height in metres.
        public var height: Double
        var targetYaw: Double
        var targetDistance: Double
        var speed: Double
        var pauseRemaining: Double

        /// The angular height of the body seen from the stand, in radians.
        public var angularHeight: Double { 2 * atan(height / 2 / distance) }
        /// The angular width of the body, in radians (bodies are 0.3 of their height wide).
        public var angularWidth: Double { angularHeight * 0.3 }
        /// The direction of the body's centre above or below the camera, in radians.
        public func centerPitch(cameraHeight: Double) -> Double {
            atan((height / 2 - cameraHeight) / distance)
        }
    }

    /// The scene's settings.
    public struct Configuration: Sendable, Hashable, Codable {
        /// The number of people, ≥ 1.
        public var people: Int = 6
        /// The seed; the same seed gives the same scene.
        public var seed: UInt64 = 1
        /// Half the yaw sector people walk in, in radians (default ±60°).
        public var sectorHalfWidth: Double = 60 * .pi / 180
        /// The nearest and farthest distances people walk at, in metres.
        public var nearest: Double = 2
        /// The farthest distance, in metres.
        public var farthest: Double = 7
        /// Walking speeds, metres per second.
        public var slowest: Double = 0.6
        /// The fastest walking speed, metres per second.
        public var fastest: Double = 1.5
        /// Probability that a new destination is a meeting with someone else.
        public var meetingProbability: Double = 0.3
        /// The camera's height above the floor, in metres.
        public var cameraHeight: Double = 1.2
        /// How people look: two-tone with lighting (the default) or the older uniform style.
        public var style: SceneStyle = .twoTone

        /// The defaults: six people in a ±60° sector, 2–7 m away.
        public init() {}
    }

    /// The settings.
    public let configuration: Configuration
    /// The people, by id.
    public private(set) var people: [Person]
    /// The time since the scene started.
    public private(set) var time: Duration = .zero
    private var generator: SeededGenerator

    /// Creates a scene; the same configuration always gives the same people and motion.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        generator = SeededGenerator(seed: configuration.seed)
        people = []
        let count = max(1, configuration.people)
        let tones = Self.tones(count: count, style: configuration.style, using: &generator)
        for id in 1...count {
            let (shade, lowerShade) = tones[id - 1]
            var person = Person(
                id: id, yaw: 0, distance: 0, shade: shade, lowerShade: lowerShade,
                height: generator.uniform(1.55...1.95), targetYaw: 0, targetDistance: 0,
                speed: generator.uniform(configuration.slowest...configuration.fastest),
                pauseRemaining: 0)
            person.yaw = generator.uniform(
                -configuration.sectorHalfWidth...configuration.sectorHalfWidth)
            person.distance = generator.uniform(configuration.nearest...configuration.farthest)
            people.append(person)
        }
        for index in people.indices { chooseDestination(for: index) }
    }

    /// The greys two-tone clothes are made of: 125...225 in steps of 20, so that two tones
    /// differ by more than the detector's similarity (14 levels) plus the two-tone scene's
    /// sensor noise, and touching people in different clothes stay apart.
    static let palette: [UInt8] = (0..<6).map { UInt8(125 + 20 * $0) }

    /// Every person's upper and lower tone (equal in the uniform style).
    ///
    /// Uniform: one grey per id, as the first scenes had. Two-tone: each person's upper tone
    /// is a palette grey no one else wears on top (until the palette's six greys run out, then
    /// they repeat), and the lower tone at least two steps from it, one no one else wears
    /// below where the palette allows. Every other person, with even odds, dresses almost
    /// like the one before (each tone one step away, where that tone is free): appearance
    /// narrows identity down without giving it away.
    private static func tones(
        count: Int, style: SceneStyle, using generator: inout SeededGenerator
    ) -> [(upper: UInt8, lower: UInt8)] {
        guard style == .twoTone else {
            return (1...count).map { id in
                let shade = UInt8(130 + (id * 37) % 120)
                return (shade, shade)
            }
        }
        let steps = palette.count
        var tones: [(upper: Int, lower: Int)] = []
        var usedUpper = Set<Int>()
        var usedLower = Set<Int>()
        func pick(_ candidates: [Int], used: Set<Int>) -> Int {
            let free = candidates.filter { !used.contains($0) }
            let pool = free.isEmpty ? candidates : free
            return pool[Int.random(in: 0..<pool.count, using: &generator)]
        }
        for index in 0..<count {
            if index % steps == 0 {
                usedUpper.removeAll()
                usedLower.removeAll()
            }
            func near(_ tone: Int) -> [Int] {
                [tone - 1, tone + 1].filter { (0..<steps).contains($0) }
            }
            let lookAlike = index % 2 == 1 && generator.uniform(0...1) < 0.5 ? tones.last : nil
            let nearUpper =
                lookAlike.map { near($0.upper).filter { !usedUpper.contains($0) } } ?? []
            let upper = pick(nearUpper.isEmpty ? Array(0..<steps) : nearUpper, used: usedUpper)
            let apart = (0..<steps).filter { abs($0 - upper) >= 2 }
            let nearLower = lookAlike.map { near($0.lower).filter(apart.contains) } ?? []
            let lower = pick(nearLower.isEmpty ? apart : nearLower, used: usedLower)
            usedUpper.insert(upper)
            usedLower.insert(lower)
            tones.append((upper, lower))
        }
        return tones.map { (palette[$0.upper], palette[$0.lower]) }
    }

    /// Advances the world by `duration` (> 0): people walk toward their destinations, pause
    /// there, and pick new ones (sometimes next to someone else: a meeting).
    public mutating func advance(by duration: Duration) {
        time += duration
        let seconds = duration.seconds
        for index in people.indices {
            if people[index].pauseRemaining > 0 {
                people[index].pauseRemaining -= seconds
                if people[index].pauseRemaining <= 0 { chooseDestination(for: index) }
                continue
            }
            let person = people[index]
            // Walk in the floor plane (x across, z away from the stand).
            let x = person.distance * sin(person.yaw)
            let z = person.distance * cos(person.yaw)
            let targetX = person.targetDistance * sin(person.targetYaw)
            let targetZ = person.targetDistance * cos(person.targetYaw)
            let dx = targetX - x
            let dz = targetZ - z
            let remaining = (dx * dx + dz * dz).squareRoot()
            let step = person.speed * seconds
            if remaining <= step {
                people[index].yaw = person.targetYaw
                people[index].distance = person.targetDistance
                people[index].pauseRemaining = generator.uniform(0.5...3)
            } else {
                let nx = x + dx / remaining * step
                let nz = z + dz / remaining * step
                people[index].yaw = atan2(nx, nz)
                people[index].distance = (nx * nx + nz * nz).squareRoot()
            }
        }
    }

    private mutating func chooseDestination(for index: Int) {
        let configuration = configuration
        var other = Int.random(in: 0..<people.count, using: &generator)
        if other == index { other = (other + 1) % people.count }
        let meets = generator.uniform(0...1) < configuration.meetingProbability
        if people.count > 1 && meets && people[other].targetDistance >= configuration.nearest {
            // Stand next to the other person's destination, half a metre apart.
            let distance = people[other].targetDistance
            people[index].targetDistance = distance
            people[index].targetYaw = people[other].targetYaw + 0.5 / max(distance, 1)
        } else {
            people[index].targetYaw = generator.uniform(
                -configuration.sectorHalfWidth...configuration.sectorHalfWidth)
            people[index].targetDistance = generator.uniform(
                configuration.nearest...configuration.farthest)
        }
        people[index].speed = generator.uniform(configuration.slowest...configuration.fastest)
    }
}

/// How the synthetic scene's people look.
public enum SceneStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Upper and lower body in different greys, some people dressed almost alike, and
    /// lighting that changes across the room: appearance helps identify people but does not
    /// give identity away.
    case twoTone = "two-tone"
    /// One grey per person under even light: the scene of the first releases, kept for
    /// comparison.
    case uniform
}
