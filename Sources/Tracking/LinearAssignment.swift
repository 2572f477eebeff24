/// Optimal (not greedy) assignment of rows to columns: the Hungarian method in its
/// shortest-augmenting-path form (Jonker–Volgenant), O(n²·m) for n ≤ m.
public enum LinearAssignment {
    /// A matched pair.
    public struct Pair: Sendable, Hashable {
        /// The row index.
        public var row: Int
        /// The column index.
        public var column: Int

        /// Creates a pair.
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// Pairs rows with columns so that the total cost of the pairs plus `limit` for every pair
    /// left unmade is minimal; only pairs cheaper than `limit` are ever made.
    ///
    /// This is the formulation ByteTrack uses (`lapjv` with `cost_limit`): a pair is worth
    /// making when it costs less than leaving both sides unmatched. The problem splits into
    /// the connected components of the "cheaper than limit" graph, each solved exactly, which
    /// keeps sparse scenes (most tracks overlap only one or two detections) fast.
    ///
    /// - Parameters:
    ///   - costs: the pair costs; NaN and infinite entries are never paired.
    ///   - limit: the threshold; pairs costing `limit` or more are never made.
    /// - Returns: the pairs, sorted by row.
    public static func solve(_ costs: CostMatrix, limit: Double) -> [Pair] {
        let rows = costs.rows
        let columns = costs.columns
        guard rows > 0, columns > 0 else { return [] }
        // Rows are elements 0..<rows, columns rows..<rows+columns. The links and the components
        // live on the stack: a tracker solves a few small problems a frame.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: rows + columns) { storage in
            var links = storage
            for element in links.indices { links.initializeElement(at: element, to: element) }
            var hasEdge = false
            for row in 0..<rows {
                for column in 0..<columns where costs[row, column] < limit {
                    hasEdge = true
                    DisjointSets.union(row, rows + column, in: &links)
                }
            }
            guard hasEdge else { return [] }
            return withUnsafeTemporaryAllocation(of: Component.self, capacity: rows + columns) {
                members in
                members.initialize(repeating: Component())
                return componentPairs(costs, limit: limit, links: &links, members: members)
            }
        }
    }

    /// The pairs of each connected component of `links` (rows, then columns), whose sizes and
    /// first members are gathered into `members` by root.
    private static func componentPairs(
        _ costs: CostMatrix, limit: Double, links: inout UnsafeMutableBufferPointer<Int>,
        members: UnsafeMutableBufferPointer<Component>
    ) -> [Pair] {
        let rows = costs.rows
        let columns = costs.columns
        // Each component's size and first row and column, by its root: most components of a
        // sparse scene are one track and one detection, paired without a list of their own.
        for row in 0..<rows {
            let root = DisjointSets.root(row, in: &links)
            if members[root].rows == 0 { members[root].firstRow = row }
            members[root].rows += 1
        }
        for column in 0..<columns {
            let root = DisjointSets.root(rows + column, in: &links)
            if members[root].columns == 0 { members[root].firstColumn = column }
            members[root].columns += 1
        }
        var pairs: [Pair] = []
        pairs.reserveCapacity(min(rows, columns))
        for row in 0..<rows {
            let root = DisjointSets.root(row, in: &links)
            let component = members[root]
            guard component.firstRow == row, component.columns > 0 else { continue }
            if component.rows == 1 && component.columns == 1 {
                pairs.append(Pair(row: row, column: component.firstColumn))
                continue
            }
            var componentRows: [Int] = []
            componentRows.reserveCapacity(component.rows)
            for other in row..<rows where DisjointSets.root(other, in: &links) == root {
                componentRows.append(other)
            }
            var componentColumns: [Int] = []
            componentColumns.reserveCapacity(component.columns)
            for column in component.firstColumn..<columns
            where DisjointSets.root(rows + column, in: &links) == root {
                componentColumns.append(column)
            }
            // Maximize the total saving (limit − cost) over pairs: a minimum-cost assignment
            // where an unmade pair costs 0 and a made one costs −(limit − cost).
            var sub = CostMatrix(rows: componentRows.count, columns: componentColumns.count)
            for (i, row) in componentRows.enumerated() {
                for (j, column) in componentColumns.enumerated() {
                    let cost = costs[row, column]
                    sub[i, j] = cost < limit ? cost - limit : 0
                }
            }
            for pair in assignment(sub) where sub[pair.row, pair.column] < 0 {
                pairs.append(
                    Pair(row: componentRows[pair.row], column: componentColumns[pair.column]))
            }
        }
        pairs.sort { $0.row < $1.row }
        return pairs
    }

    /// One connected component of the cheaper-than-limit graph: how many rows and columns it
    /// has, and its first of each.
    private struct Component {
        var rows = 0
        var columns = 0
        var firstRow = 0
        var firstColumn = 0
    }

    /// The assignment of every row (when rows ≤ columns) or every column (otherwise) that
    /// minimizes the total of finite costs.
    ///
    /// - Parameter costs: the costs; must be finite.
    /// - Returns: `(row, column)` pairs, `min(rows, columns)` of them.
    public static func minimumCostAssignment(_ costs: CostMatrix) -> [(Int, Int)] {
        assignment(costs).map { ($0.row, $0.column) }
    }

    /// ``minimumCostAssignment(_:)`` as pairs.
    private static func assignment(_ costs: CostMatrix) -> [Pair] {
        if costs.rows <= costs.columns {
            return hungarian(costs)
        }
        var transposed = CostMatrix(rows: costs.columns, columns: costs.rows)
        for row in 0..<costs.rows {
            for column in 0..<costs.columns { transposed[column, row] = costs[row, column] }
        }
        return hungarian(transposed).map { Pair(row: $0.column, column: $0.row) }
    }

    /// The shortest-augmenting-path Hungarian method with potentials, for rows ≤ columns.
    ///
    /// Its working arrays live on the stack (a tracker solves a few small problems a frame,
    /// where allocating them cost more than the method).
    private static func hungarian(_ costs: CostMatrix) -> [Pair] {
        let n = costs.rows
        let m = costs.columns
        // 1-based arrays as in the classic formulation; index 0 is the virtual start.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: n + 1 + 2 * (m + 1)) {
            reals in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (m + 1)) { integers in
                reals.initialize(repeating: 0)
                integers.initialize(repeating: 0)
                let rowPotential = UnsafeMutableBufferPointer(rebasing: reals[0...n])
                let columnPotential = UnsafeMutableBufferPointer(
                    rebasing: reals[(n + 1)...(n + 1 + m)])
                let minimumSlack = UnsafeMutableBufferPointer(
                    rebasing: reals[(n + m + 2)...(n + 2 * m + 2)])
                let rowOfColumn = UnsafeMutableBufferPointer(rebasing: integers[0...m])
                let previousColumn = UnsafeMutableBufferPointer(
                    rebasing: integers[(m + 1)...(2 * m + 1)])
                // 1 where the column is in the current tree.
                let used = UnsafeMutableBufferPointer(
                    rebasing: integers[(2 * m + 2)...(3 * m + 2)])
                costs.values.withUnsafeBufferPointer { values in
                    for row in 1...n {
                        rowOfColumn[0] = row
                        var column0 = 0
                        for j in 0...m {
                            minimumSlack[j] = .infinity
                            used[j] = 0
                        }
                        repeat {
                            used[column0] = 1
                            let row0 = rowOfColumn[column0]
                            var delta = Double.infinity
                            var column1 = 0
                            for j in 1...m where used[j] == 0 {
                                let slack =
                                    values[(row0 - 1) * m + (j - 1)] - rowPotential[row0]
                                    - columnPotential[j]
                                if slack < minimumSlack[j] {
                                    minimumSlack[j] = slack
                                    previousColumn[j] = column0
                                }
                                if minimumSlack[j] < delta {
                                    delta = minimumSlack[j]
                                    column1 = j
                                }
                            }
                            for j in 0...m {
                                if used[j] != 0 {
                                    rowPotential[rowOfColumn[j]] += delta
                                    columnPotential[j] -= delta
                                } else {
                                    minimumSlack[j] -= delta
                                }
                            }
                            column0 = column1
                        } while rowOfColumn[column0] != 0
                        repeat {
                            let column1 = previousColumn[column0]
                            rowOfColumn[column0] = rowOfColumn[column1]
                            column0 = column1
                        } while column0 != 0
                    }
                }
                var pairs: [Pair] = []
                pairs.reserveCapacity(n)
                for j in 1...m where rowOfColumn[j] != 0 {
                    pairs.append(Pair(row: rowOfColumn[j] - 1, column: j - 1))
                }
                pairs.sort { $0.row < $1.row }
                return pairs
            }
        }
    }
}
