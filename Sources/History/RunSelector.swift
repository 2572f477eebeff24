/// Which runs of the history a command means, as typed on the command line.
public enum RunSelector: Hashable, Sendable, CustomStringConvertible {
    /// One run: `12`.
    case run(RunID)
    /// Runs by id, both ends included: `10-19`.
    case range(ClosedRange<Int64>)
    /// The latest runs with a label, all of them or the last `limit`: `deferred`,
    /// `deferred~10`.
    case label(String, limit: Int?)
    /// The latest `count` runs, whatever their label: `last~10`.
    case latest(Int)

    /// Parses `12`, `10-19`, `last~10`, `LABEL` or `LABEL~N`.
    ///
    /// - Throws: ``RunSelectorError`` for an empty text, a reversed range or a count below 1.
    public init(parsing text: String) throws(RunSelectorError) {
        guard !text.isEmpty else { throw RunSelectorError(text: text, problem: "it is empty") }
        if let id = Int64(text) {
            guard id > 0 else { throw RunSelectorError(text: text, problem: "run ids start at 1") }
            self = .run(RunID(id))
            return
        }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false)
        if bounds.count == 2, let low = Int64(bounds[0]), let high = Int64(bounds[1]) {
            guard low <= high else {
                throw RunSelectorError(text: text, problem: "the range's start is after its end")
            }
            self = .range(low...high)
            return
        }
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        var limit: Int?
        if parts.count == 2 {
            guard let count = Int(parts[1]), count >= 1 else {
                throw RunSelectorError(
                    text: text, problem: "expected a count of at least 1 after ~")
            }
            limit = count
        }
        let name = String(parts[0])
        guard !name.isEmpty else {
            throw RunSelectorError(text: text, problem: "the label is empty")
        }
        if name == "last" {
            self = .latest(limit ?? 1)
        } else {
            self = .label(name, limit: limit)
        }
    }

    /// The selector as it would be typed.
    public var description: String {
        switch self {
        case .run(let id): "\(id)"
        case .range(let range): "\(range.lowerBound)-\(range.upperBound)"
        case .label(let label, let limit): limit.map { "\(label)~\($0)" } ?? label
        case .latest(let count): "last~\(count)"
        }
    }
}

/// A run selector that cannot be parsed.
public struct RunSelectorError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was typed.
    public var text: String
    /// What is wrong with it.
    public var problem: String

    /// Creates the error.
    public init(text: String, problem: String) {
        self.text = text
        self.problem = problem
    }

    /// Names the selector, the problem and the accepted forms.
    public var description: String {
        "run selector \"\(text)\": \(problem); expected a run id (12), a range (10-19),"
            + " a label (deferred, deferred~10) or last~N"
    }
}
