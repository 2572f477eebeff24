/// How the camera's buffer is rotated relative to the upright image a user sees.
///
/// The cases name the rotation that turns the buffer upright, clockwise, as
/// `CGImagePropertyOrientation` does for its non-mirrored cases.
public enum CameraOrientation: String, Sendable, CaseIterable, Codable {
    /// The buffer is already upright.
    case up
    /// The buffer must be turned 90° clockwise to be upright.
    case right
    /// The buffer must be turned 180° to be upright.
    case down
    /// The buffer must be turned 90° counter-clockwise (270° clockwise) to be upright.
    case left

    /// Maps a normalized top-left point of the buffer to the upright image.
    func upright(x: Double, y: Double) -> (x: Double, y: Double) {
        switch self {
        case .up: return (x, y)
        case .right: return (1 - y, x)
        case .down: return (1 - x, 1 - y)
        case .left: return (y, 1 - x)
        }
    }

    /// Whether the upright image swaps the buffer's width and height.
    var swapsAxes: Bool { self == .right || self == .left }
}
