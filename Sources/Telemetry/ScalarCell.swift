import Synchronization

/// One gauge or counter series' value: a double in an atomic word, and whether the series is in
/// the exposition. A ``GaugeHandle`` or ``CounterHandle`` keeps the cell of its series, so
/// publishing is an atomic store (or a compare-and-swap for an increment): no label lookup,
/// no lock, nothing that can fail.
final class ScalarCell: Sendable {
    private let bits = Atomic<UInt64>(0)
    private let present = Atomic<Bool>(false)

    /// The value.
    var value: Double { Double(bitPattern: bits.load(ordering: .acquiring)) }

    /// Whether the series is exported (set since it was created or last removed).
    var isPresent: Bool { present.load(ordering: .acquiring) }

    /// Sets the value and exports the series.
    func store(_ value: Double) {
        bits.store(value.bitPattern, ordering: .releasing)
        if !present.load(ordering: .relaxed) { present.store(true, ordering: .releasing) }
    }

    /// Adds `amount` and exports the series.
    func add(_ amount: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + amount).bitPattern
            let (exchanged, original) = bits.compareExchange(
                expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = original
        }
        if !present.load(ordering: .relaxed) { present.store(true, ordering: .releasing) }
    }

    /// Takes the series out of the exposition; a counter starts again from 0.
    func remove() {
        present.store(false, ordering: .releasing)
        bits.store(0, ordering: .releasing)
    }
}
