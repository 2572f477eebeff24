import History
import Testing
import Units

/// `count` launch times around `median` seconds with ±`spread` relative uniform noise and an
/// occasional slow outlier, as real launches have.
func launches(_ count: Int, median: Double, spread: Double = 0.04, seed: UInt64) -> [Double] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { index in
        let noise = Double.random(in: -spread...spread, using: &generator)
        let outlier = index % 7 == 3 ? 1.3 : 1
        return median * (1 + noise) * outlier
    }
}

let firstFrame = LaunchMetric(name: "firstPreviewFrame", kind: .markTime)

@Test func anInjectedRegressionIsFlagged() {
    let comparison = LaunchComparison()
    for seed in UInt64(1)...20 {
        let baseline = launches(10, median: 0.080, seed: seed)
        let slower = launches(10, median: 0.080 * 1.25, seed: seed + 1000)
        let change = comparison.change(of: firstFrame, baseline: baseline, candidate: slower)
        #expect(change.verdict == .regression, "seed \(seed): p = \(change.pValue ?? -1)")
        #expect(change.relativeChange > 0.15)
        let faster = comparison.change(of: firstFrame, baseline: slower, candidate: baseline)
        #expect(faster.verdict == .improvement)
    }
}

@Test func noiseIsNotFlagged() {
    let comparison = LaunchComparison()
    for seed in UInt64(1)...50 {
        let baseline = launches(10, median: 0.080, seed: seed)
        let again = launches(10, median: 0.080, seed: seed + 5000)
        let change = comparison.change(of: firstFrame, baseline: baseline, candidate: again)
        #expect(change.verdict == .unchanged, "seed \(seed): p = \(change.pValue ?? -1)")
    }
}

@Test func tooFewRunsAreNotTested() {
    let change = LaunchComparison().change(
        of: firstFrame, baseline: [0.08, 0.081], candidate: [0.5, 0.6, 0.7])
    #expect(change.verdict == .insufficientData)
    #expect(change.pValue == nil)
}

@Test func aTinyButConsistentShiftIsNotARegression() {
    let baseline = (0..<20).map { 0.080 + Double($0) * 1e-6 }
    let candidate = baseline.map { $0 * 1.01 }
    let change = LaunchComparison().change(of: firstFrame, baseline: baseline, candidate: candidate)
    #expect(change.verdict == .unchanged)
}

@Test func exactMannWhitneyPValuesMatchTheTables() {
    let separated = MannWhitneyTest([1, 2, 3], [4, 5, 6])
    #expect(separated.isExact)
    #expect(separated.u == 0)
    #expect(abs(separated.pValue - 0.1) < 1e-12)  // 2 of 20 arrangements
    let five = MannWhitneyTest([6, 7, 8, 9, 10], [1, 2, 3, 4, 5])
    #expect(five.u == 25)
    #expect(abs(five.pValue - 2.0 / 252) < 1e-12)
    #expect(MannWhitneyTest([1, 2, 3, 4], [1, 2, 3, 4]).pValue == 1)
}

@Test func theNormalApproximationIsCloseToTheExactValue() {
    let a = (0..<12).map { Double($0) * 1.1 }
    let b = (0..<12).map { Double($0) * 1.1 + 3.05 }
    let exact = MannWhitneyTest(a, b)
    let tied = MannWhitneyTest(a + [100], b + [100])
    #expect(exact.isExact && !tied.isExact)
    #expect(abs(exact.pValue - tied.pValue) < 0.1)
}

@Test func comparingSetsCoversMetricsOnBothSides() {
    let shared = LaunchMetric(name: "sessionStart", kind: .phaseDuration)
    let onlyBefore = LaunchMetric(name: "old", kind: .phaseDuration)
    let changes = LaunchComparison().changes(
        baseline: [shared: [1, 1, 1], onlyBefore: [1, 1, 1], firstFrame: [2, 2, 2]],
        candidate: [shared: [1, 1, 1], firstFrame: [2, 2, 2]])
    #expect(changes.map(\.metric) == [shared, firstFrame])
}
