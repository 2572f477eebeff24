/// libsensors could not be used at all (as opposed to one sensor failing, which is a
/// ``SensorFault``).
public struct LibsensorsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed and what to do about it.
    public var problem: String

    /// An error explaining `problem`.
    public init(problem: String) {
        self.problem = problem
    }

    /// `libsensors: <problem>`.
    public var description: String { "libsensors: \(problem)" }
}
