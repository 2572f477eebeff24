import Locking

/// Text made the first time it is asked for, then kept: a reading's JSON for `/status` costs
/// tens of microseconds to encode, and readings are taken far more often than `/status` is
/// asked for.
public final class DeferredText: Sendable, Hashable, CustomStringConvertible {
    private let make: @Sendable () -> String
    private let made = LockedState<String?>(nil)

    /// Text that `make` produces when first needed (called at most once).
    public init(_ make: @escaping @Sendable () -> String) {
        self.make = make
    }

    /// Text known already.
    public convenience init(text: String) {
        self.init({ text })
    }

    /// The text, made now if it was not yet.
    public var text: String {
        if let text = made.withLock({ $0 }) { return text }
        let text = make()
        made.withLock { $0 = $0 ?? text }
        return text
    }

    /// The text.
    public var description: String { text }

    /// Equal when the texts are (one text is equal to itself without being made).
    public static func == (lhs: DeferredText, rhs: DeferredText) -> Bool {
        lhs === rhs || lhs.text == rhs.text
    }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
