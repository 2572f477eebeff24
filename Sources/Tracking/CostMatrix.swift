/// A dense rows × columns matrix of assignment costs, row-major.
public struct CostMatrix: Sendable, Hashable {
    /// The number of rows (for the tracker: tracks).
    public let rows: Int
    /// The number of columns (for the tracker: detections).
    public let columns: Int
    /// The costs, row-major; `values[row * columns + column]`.
    public var values: [Double]

    /// Creates a matrix filled with `value`.
    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        self.rows = rows
        self.columns = columns
        values = [Double](repeating: value, count: rows * columns)
    }

    /// Creates a matrix from its rows; every row must have the same length.
    public init(_ rows: [[Double]]) {
        self.rows = rows.count
        columns = rows.first?.count ?? 0
        values = rows.flatMap { $0 }
        precondition(values.count == self.rows * columns, "CostMatrix rows differ in length")
    }

    /// The cost of assigning `row` to `column`.
    public subscript(row: Int, column: Int) -> Double {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }
}
