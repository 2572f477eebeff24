/// Union–find over the integers `0..<count`, with path halving: what splits an assignment
/// into the connected components of its graph, each solved on its own small matrix.
struct DisjointSets {
    private var parent: [Int]

    /// `count` elements, each in a set of its own.
    init(count: Int = 0) {
        parent = Array(0..<count)
    }

    /// Adds an element in a set of its own and returns it.
    mutating func add() -> Int {
        parent.append(parent.count)
        return parent.count - 1
    }

    /// The representative of `element`'s set.
    mutating func root(_ element: Int) -> Int {
        Self.root(element, in: &parent)
    }

    /// Joins the sets of `a` and `b`.
    mutating func union(_ a: Int, _ b: Int) {
        Self.union(a, b, in: &parent)
    }

    /// The representative of `element`'s set in the parent links `parent` (each element's
    /// link, a root its own), halving the path on the way: for links kept in storage of the
    /// caller's, such as a temporary allocation.
    static func root<Links: MutableCollection<Int>>(_ element: Int, in parent: inout Links) -> Int
    where Links.Index == Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    /// Joins the sets of `a` and `b` in the parent links `parent`.
    static func union<Links: MutableCollection<Int>>(_ a: Int, _ b: Int, in parent: inout Links)
    where Links.Index == Int {
        let rootA = root(a, in: &parent)
        let rootB = root(b, in: &parent)
        if rootA != rootB { parent[rootA] = rootB }
    }
}
