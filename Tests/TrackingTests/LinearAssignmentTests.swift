import Testing
import Tracking
import Units

@Suite struct LinearAssignmentTests {
    /// The best total saving Σ(limit − cost) over all partial matchings, by enumeration.
    private func bruteForceSaving(_ costs: CostMatrix, limit: Double) -> Double {
        var best = 0.0
        var usedColumns = [Bool](repeating: false, count: costs.columns)
        func search(_ row: Int, _ saving: Double) {
            if row == costs.rows {
                best = max(best, saving)
                return
            }
            search(row + 1, saving)
            for column in 0..<costs.columns where !usedColumns[column] {
                let cost = costs[row, column]
                guard cost < limit else { continue }
                usedColumns[column] = true
                search(row + 1, saving + limit - cost)
                usedColumns[column] = false
            }
        }
        search(0, 0)
        return best
    }

    private func bruteForceMinimum(_ costs: CostMatrix) -> Double {
        var best = Double.infinity
        let transpose = costs.rows > costs.columns
        let rows = transpose ? costs.columns : costs.rows
        let columns = transpose ? costs.rows : costs.columns
        var used = [Bool](repeating: false, count: columns)
        func search(_ row: Int, _ total: Double) {
            if row == rows {
                best = min(best, total)
                return
            }
            for column in 0..<columns where !used[column] {
                used[column] = true
                search(row + 1, total + (transpose ? costs[column, row] : costs[row, column]))
                used[column] = false
            }
        }
        search(0, 0)
        return best
    }

    @Test(arguments: 0..<200)
    func thresholdedAssignmentIsOptimal(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let rows = Int.random(in: 1...6, using: &generator)
        let columns = Int.random(in: 1...6, using: &generator)
        var costs = CostMatrix(rows: rows, columns: columns)
        for row in 0..<rows {
            for column in 0..<columns {
                costs[row, column] =
                    generator.uniform(0...1) < 0.3 ? .infinity : generator.uniform(0...1)
            }
        }
        let limit = 0.8
        let pairs = LinearAssignment.solve(costs, limit: limit)
        #expect(Set(pairs.map(\.row)).count == pairs.count)
        #expect(Set(pairs.map(\.column)).count == pairs.count)
        #expect(pairs.allSatisfy { costs[$0.row, $0.column] < limit })
        let saving = pairs.reduce(0) { $0 + limit - costs[$1.row, $1.column] }
        #expect(abs(saving - bruteForceSaving(costs, limit: limit)) < 1e-9)
    }

    @Test(arguments: 0..<100)
    func fullAssignmentIsOptimal(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(1000 + seed))
        let rows = Int.random(in: 1...6, using: &generator)
        let columns = Int.random(in: 1...6, using: &generator)
        var costs = CostMatrix(rows: rows, columns: columns)
        for index in costs.values.indices { costs.values[index] = generator.uniform(-5...5) }
        let pairs = LinearAssignment.minimumCostAssignment(costs)
        #expect(pairs.count == min(rows, columns))
        let total = pairs.reduce(0) { $0 + costs[$1.0, $1.1] }
        #expect(abs(total - bruteForceMinimum(costs)) < 1e-9)
    }

    @Test func greedyWouldBeWrongHere() {
        // Greedy takes (0,0) at 0.1 and leaves row 1 with 0.9; optimal pairs (0,1), (1,0).
        let costs = CostMatrix([[0.1, 0.2], [0.3, 0.9]])
        let pairs = LinearAssignment.solve(costs, limit: 1)
        #expect(pairs == [.init(row: 0, column: 1), .init(row: 1, column: 0)])
    }

    @Test func emptyAndInfeasibleGiveNoPairs() {
        #expect(LinearAssignment.solve(CostMatrix(rows: 0, columns: 3), limit: 1).isEmpty)
        #expect(
            LinearAssignment.solve(CostMatrix([[.infinity, .nan], [2, 3]]), limit: 1).isEmpty)
    }
}
