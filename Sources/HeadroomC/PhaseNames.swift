import LaunchTiming
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The launch phase a C caller names, found without a lock or an allocation once the name
/// has been seen: a table keyed by the string's address (callers pass literals, the same
/// address every time) whose hit is confirmed by comparing the text with the phase's
/// registered name, so a reused buffer holding another name is never mistaken.
final class PhaseNames: Sendable {
    static let shared = PhaseNames()

    private static let slotCount = 512
    // Per slot: the name's address << 16 | the phase id; 0 when empty.
    private let slots: InlineArray<512, Atomic<UInt64>>
    // Per phase id: its name as a C string of our own, set once.
    private let names: InlineArray<4096, Atomic<UInt>>

    private init() {
        slots = InlineArray { _ in Atomic<UInt64>(0) }
        names = InlineArray { _ in Atomic<UInt>(0) }
    }

    /// The phase called `name`; the protocol's names of Headroom's phases (`first_frame`)
    /// are those phases, as in a measured launch.
    @inline(__always)
    func phase(_ name: UnsafePointer<CChar>) -> LaunchPhase {
        let address = UInt64(UInt(bitPattern: name))
        let slot =
            Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 55) & (Self.slotCount - 1)
        let word = slots[slot].load(ordering: .acquiring)
        if word >> 16 == address {
            let id = UInt16(truncatingIfNeeded: word)
            let stored = names[Int(id)].load(ordering: .acquiring)
            if stored != 0, strcmp(name, UnsafePointer(bitPattern: stored)!) == 0 {
                return LaunchPhase(id: id)
            }
        }
        return register(name, address: address, slot: slot)
    }

    /// The slow path: the phase by name (registering it), remembered for this address.
    private func register(_ name: UnsafePointer<CChar>, address: UInt64, slot: Int) -> LaunchPhase {
        let text = String(cString: name)
        let phase = TraceAssembler.standardNames[text] ?? LaunchPhase(named: text)
        let id = Int(phase.id)
        if names[id].load(ordering: .acquiring) == 0 {
            let copy = UInt(bitPattern: strdup(name))
            if !names[id].compareExchange(
                expected: 0, desired: copy, ordering: .acquiringAndReleasing
            )
            .exchanged {
                free(UnsafeMutableRawPointer(bitPattern: copy))
            }
        }
        // Addresses of user space fit in 48 bits; any other cannot be cached.
        if address >> 48 == 0 {
            slots[slot].store(address << 16 | UInt64(phase.id), ordering: .releasing)
        }
        return phase
    }
}
