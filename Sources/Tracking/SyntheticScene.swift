import Foundation

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
        /// The body's grey level, 120...250; the background stays below 100.
        public var shade: UInt8
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

        /// The defaults: six people in a ±60° sector, 2–7 m away.
        public init() {}
    }

    /// The settings.
    public let configuration: Configuration
    /// The people, by id.
    public private(set) var people: [Person]
    /// Seconds since the scene started.
    public private(set) var time: Double = 0
    private var generator: SeededGenerator

    /// Creates a scene; the same configuration always gives the same people and motion.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        generator = SeededGenerator(seed: configuration.seed)
        people = []
        for id in 1...max(1, configuration.people) {
            let shade = UInt8(130 + (id * 37) % 120)
            var person = Person(
                id: id, yaw: 0, distance: 0, shade: shade,
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

    /// Advances the world by `seconds` (> 0): people walk toward their destinations, pause
    /// there, and pick new ones (sometimes next to someone else: a meeting).
    public mutating func advance(by seconds: Double) {
        time += seconds
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
