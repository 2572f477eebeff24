#if canImport(Glibc)
    import Glibc
#endif

/// The Mann–Whitney U test (Wilcoxon rank-sum): whether one sample tends to be larger than
/// another, without assuming a distribution — launch times are skewed and have outliers.
public struct MannWhitneyTest: Hashable, Sendable {
    /// The U statistic of the first sample: pairs (a, b) with a > b, ties counting one half.
    public var u: Double
    /// The two-sided p-value: the chance of a difference at least this large if both samples
    /// came from the same distribution.
    public var pValue: Double
    /// Whether the p-value is exact (small samples without ties) or from the normal
    /// approximation with tie and continuity corrections.
    public var isExact: Bool

    /// Tests samples `a` and `b` (each non-empty).
    public init(_ a: [Double], _ b: [Double]) {
        let m = a.count
        let n = b.count
        let pooled = (a.map { ($0, true) } + b.map { ($0, false) }).sorted { $0.0 < $1.0 }
        // Average ranks over ties.
        var rankSumA = 0.0
        var tieTerm = 0.0
        var index = 0
        while index < pooled.count {
            var end = index
            while end + 1 < pooled.count && pooled[end + 1].0 == pooled[index].0 { end += 1 }
            let rank = Double(index + end + 2) / 2
            let size = Double(end - index + 1)
            tieTerm += size * size * size - size
            for position in index...end where pooled[position].1 { rankSumA += rank }
            index = end + 1
        }
        u = rankSumA - Double(m * (m + 1)) / 2
        let mean = Double(m * n) / 2
        if tieTerm == 0 && m <= 20 && n <= 20 && m > 0 && n > 0 {
            isExact = true
            pValue = Self.exactTwoSided(u: u, m: m, n: n)
        } else {
            isExact = false
            let total = Double(m + n)
            let variance =
                Double(m * n) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
            guard variance > 0 else {
                pValue = 1
                return
            }
            let z = max(abs(u - mean) - 0.5, 0) / variance.squareRoot()
            pValue = min(erfc(z / 2.0.squareRoot()), 1)
        }
    }

    /// P(|U − mn/2| ≥ |u − mn/2|) under the null hypothesis, by counting rank arrangements.
    private static func exactTwoSided(u: Double, m: Int, n: Int) -> Double {
        // Standard recurrence f(m, n, k) = f(m − 1, n, k − n) + f(m, n − 1, k).
        var table = [[[Double]]](
            repeating: [[Double]](repeating: [], count: n + 1), count: m + 1)
        for i in 0...m {
            for j in 0...n {
                var row = [Double](repeating: 0, count: i * j + 1)
                if i == 0 || j == 0 {
                    row[0] = 1
                } else {
                    for k in 0...(i * j) {
                        // The largest value is the first sample's (it beats all j of the
                        // second) or the second's (it beats none).
                        let withA =
                            k >= j && k - j < table[i - 1][j].count ? table[i - 1][j][k - j] : 0
                        let withB = k < table[i][j - 1].count ? table[i][j - 1][k] : 0
                        row[k] = withA + withB
                    }
                }
                table[i][j] = row
            }
        }
        let distribution = table[m][n]
        let total = distribution.reduce(0, +)
        let center = Double(m * n) / 2
        let distance = abs(u - center)
        var tail = 0.0
        for (k, count) in distribution.enumerated() where abs(Double(k) - center) >= distance - 1e-9
        {
            tail += count
        }
        return min(tail / total, 1)
    }
}
