/// Ordinary least squares through the origin over a few columns, by the normal equations.
enum LeastSquares {
    /// The coefficients `c` minimising `Σ (y − Σ c_k × columns_k)²`; `nil` when the columns
    /// cannot be told apart (a singular system).
    static func solve(_ columns: [[Double]], _ y: [Double]) -> [Double]? {
        let count = columns.count
        // The augmented normal equations [XᵀX | Xᵀy], solved by Gaussian elimination.
        var rows = (0..<count).map { i in
            (0..<count).map { j in zip(columns[i], columns[j]).reduce(0) { $0 + $1.0 * $1.1 } }
                + [zip(columns[i], y).reduce(0) { $0 + $1.0 * $1.1 }]
        }
        // A column is told apart from the others when what is left of it after them is more
        // than a trillionth of it: columns keep their own units (pixels and cameras).
        let diagonal = rows.indices.map { rows[$0][$0] }
        for pivot in 0..<count {
            guard
                let best = (pivot..<count).max(by: {
                    abs(rows[$0][pivot]) < abs(rows[$1][pivot])
                }),
                abs(rows[best][pivot]) > 1e-12 * diagonal[pivot]
            else { return nil }
            rows.swapAt(pivot, best)
            for row in 0..<count where row != pivot {
                let factor = rows[row][pivot] / rows[pivot][pivot]
                for column in pivot...count { rows[row][column] -= factor * rows[pivot][column] }
            }
        }
        return (0..<count).map { rows[$0][count] / rows[$0][$0] }
    }
}
