import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Renders a ``SyntheticScene`` into greyscale frames as a camera at a given pose sees it,
/// with a textured background that moves as the camera pans, sensor noise, and occlusion
/// (nearer people are drawn over farther ones). Also reports the ground truth: each person's
/// visible box and the fraction of it that is not occluded.
public struct FrameRenderer: Sendable {
    /// A person as the frame shows them.
    public struct Visible: Sendable, Hashable {
        /// The person's id.
        public var id: Int
        /// The body's box in pixels (top-left origin), clipped to the frame.
        public var box: BoundingBox
        /// The fraction of the unclipped body's pixels that are visible, 0...1.
        public var visibility: Double
    }

    /// The frame width in pixels, > 0.
    public let width: Int
    /// The frame height in pixels, > 0.
    public let height: Int
    /// The amplitude of the sensor noise, in grey levels.
    public var noise: Int
    private var noiseState: UInt64

    /// Creates a renderer for frames of `width × height` pixels; the noise is seeded, ±3 grey
    /// levels for the two-tone scene (a well-lit sensor: its tones are 20 levels apart) and
    /// ±6 for the uniform one, as before.
    public init(width: Int, height: Int, seed: UInt64 = 7, style: SceneStyle = .twoTone) {
        self.width = max(1, width)
        self.height = max(1, height)
        noise = style == .twoTone ? 3 : 6
        noiseState = seed | 1
    }

    /// The upper body's share of a person's height (head and torso; the legs are the rest).
    public static let upperBodyFraction = 0.45

    /// The light falling on a person standing in world direction `yaw` (radians), as a factor
    /// of their tones: 0.96...1.04, brighter toward one side of the room. The two-tone scene
    /// uses it; the uniform scene is evenly lit.
    public static func lighting(atYaw yaw: Double) -> Double {
        1 + 0.04 * sin(yaw * 2.5 + 0.7)
    }

    /// Renders the scene from `pose` into `frame` (which must be `width × height`).
    /// - Returns: the people in view, nearest first.
    public mutating func render(
        _ scene: SyntheticScene, from pose: CameraPose, into frame: inout GrayFrame
    ) -> [Visible] {
        precondition(frame.width == width && frame.height == height, "frame size mismatch")
        let w = width
        let h = height
        // Background: a pattern fixed to the world, so it moves with the pan and tilt.
        let columnShade = (0..<w).map { column -> Int in
            let worldYaw =
                pose.yaw + (Double(column) / Double(w) - 0.5) * pose.horizontalFieldOfView
            let stripe = Int((worldYaw * 12).rounded(.down)) & 3
            return 30 + stripe * 12
        }
        var state = noiseState
        let amplitude = UInt64(max(0, noise) * 2 + 1)
        var owner = [UInt8](repeating: 0, count: w * h)
        frame.pixels.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<h {
                let worldPitch =
                    pose.pitch + (0.5 - Double(row) / Double(h)) * pose.verticalFieldOfView
                let rowShade = worldPitch < -0.2 ? 10 : 0
                let base = row * w
                for column in 0..<w {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let jitter = Int((state >> 33) % amplitude) - noise
                    pixels[base + column] = UInt8(
                        clamping: columnShade[column] + rowShade + jitter)
                }
            }
        }
        // People, farthest first so nearer ones occlude them.
        let order = scene.people.indices.sorted {
            scene.people[$0].distance > scene.people[$1].distance
        }
        var boxes: [(id: Int, box: BoundingBox, area: Double, ownerTag: UInt8)] = []
        for (rank, index) in order.enumerated() {
            let person = scene.people[index]
            let center = pose.imagePoint(
                yaw: person.yaw,
                pitch: person.centerPitch(cameraHeight: scene.configuration.cameraHeight))
            let boxWidth = person.angularWidth / pose.horizontalFieldOfView * Double(w)
            let boxHeight = person.angularHeight / pose.verticalFieldOfView * Double(h)
            let full = BoundingBox(
                centerX: center.x * Double(w), centerY: center.y * Double(h), width: boxWidth,
                height: boxHeight)
            let x0 = max(0, Int(full.minX.rounded()))
            let x1 = min(w, Int(full.maxX.rounded()))
            let y0 = max(0, Int(full.minY.rounded()))
            let y1 = min(h, Int(full.maxY.rounded()))
            guard x0 < x1, y0 < y1 else { continue }
            let tag = UInt8(truncatingIfNeeded: rank + 1)
            let style = scene.configuration.style
            let waist = Int((full.minY + full.height * Self.upperBodyFraction).rounded())
            let light = style == .twoTone ? Self.lighting(atYaw: person.yaw) : 1
            let upper = Int((Double(person.shade) * light).rounded())
            let lower = Int((Double(person.lowerShade) * light).rounded())
            frame.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in y0..<y1 {
                    let base = row * w
                    let shade = row < waist ? upper : lower
                    for column in x0..<x1 {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        let jitter = Int((state >> 33) % amplitude) - noise
                        pixels[base + column] = UInt8(clamping: shade + jitter)
                        owner[base + column] = tag
                    }
                }
            }
            let clipped = BoundingBox(
                minX: Double(x0), minY: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
            boxes.append((person.id, clipped, max(1, full.area), tag))
        }
        noiseState = state
        var visibleCount = [Int](repeating: 0, count: 256)
        for tag in owner where tag != 0 { visibleCount[Int(tag)] += 1 }
        return boxes.reversed().map { entry in
            Visible(
                id: entry.id, box: entry.box,
                visibility: min(1, Double(visibleCount[Int(entry.ownerTag)]) / entry.area))
        }
    }
}
