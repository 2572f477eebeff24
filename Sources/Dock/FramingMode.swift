import Tracking

/// Where the stand places the subject in the picture.
public enum FramingMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// The centre for a still subject or a group; a moving single subject is placed on the
    /// third behind it, leaving room in the direction it walks.
    case automatic
    /// The subject on the left third (room for an overlay on the right).
    case left
    /// The subject in the centre.
    case center
    /// The subject on the right third (room for an overlay on the left).
    case right
}
