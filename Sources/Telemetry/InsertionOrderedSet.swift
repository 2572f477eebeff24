/// A set that remembers the order its elements were added in, with constant-time `append`,
/// `remove` and `first`: the queue of idle connections, oldest first, from which one leaves
/// whenever it starts a request or closes.
struct InsertionOrderedSet<Element: Hashable> {
    private var links: [Element: (previous: Element?, next: Element?)] = [:]
    /// The element added earliest among those still present.
    private(set) var first: Element?
    private var last: Element?

    /// How many elements the set holds.
    var count: Int { links.count }

    /// Whether the set holds no element.
    var isEmpty: Bool { links.isEmpty }

    /// Whether `element` is in the set.
    func contains(_ element: Element) -> Bool {
        links[element] != nil
    }

    /// Adds `element` as the newest; an element already present keeps its place.
    mutating func append(_ element: Element) {
        guard links[element] == nil else { return }
        links[element] = (previous: last, next: nil)
        if let last { links[last]?.next = element } else { first = element }
        last = element
    }

    /// Removes `element`, wherever it is; returns whether it was there.
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard let link = links.removeValue(forKey: element) else { return false }
        if let previous = link.previous {
            links[previous]?.next = link.next
        } else {
            first = link.next
        }
        if let next = link.next {
            links[next]?.previous = link.previous
        } else {
            last = link.previous
        }
        return true
    }
}
