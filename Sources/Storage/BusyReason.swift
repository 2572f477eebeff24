/// Why the reserve is busy, as `AVProVideoStorage.busyReasons` has it: a client checks that
/// none stands in its way before it records or resizes.
public enum BusyReason: String, CaseIterable, Codable, Comparable, Sendable {
    /// Segments are being created (`storage allocate`).
    case allocating
    /// Segments are being removed (`storage release`, or `allocate` to a smaller size).
    case releasing
    /// Segments used by finished recordings are being recreated.
    case replenishing
    /// A recording is writing into the reserve; more may start beside it.
    case recording

    /// Whether the reserve's size is changing: then nothing else may start.
    public var isResizing: Bool { self != .recording }

    /// Orders as declared.
    public static func < (lhs: BusyReason, rhs: BusyReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
