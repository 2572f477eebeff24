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
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    /// Joins the sets of `a` and `b`.
    mutating func union(_ a: Int, _ b: Int) {
        let rootA = root(a)
        let rootB = root(b)
        if rootA != rootB { parent[rootA] = rootB }
    }
}
