import Testing
import Units

@testable import Tracking

/// A dense 8×8 reference of the same filter, written out with plain matrix algebra.
private struct DenseKalman {
    var mean: [Double]
    var covariance: [[Double]]
    static let p = 1.0 / 20
    static let v = 1.0 / 160
    var p: Double { Self.p }
    var v: Double { Self.v }

    init(_ box: BoundingBox) {
        mean = [box.centerX, box.centerY, box.width, box.height, 0, 0, 0, 0]
        let sizes = [box.width, box.height, box.width, box.height]
        covariance = Self.diagonal(
            sizes.map { pow2(2 * Self.p * $0) } + sizes.map { pow2(10 * Self.v * $0) })
    }

    static func diagonal(_ values: [Double]) -> [[Double]] {
        (0..<values.count).map { i in (0..<values.count).map { j in i == j ? values[i] : 0 } }
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<a.count).map { i in
            (0..<b[0].count).map { j in (0..<b.count).reduce(0) { $0 + a[i][$1] * b[$1][j] } }
        }
    }

    static func transpose(_ a: [[Double]]) -> [[Double]] {
        (0..<a[0].count).map { j in (0..<a.count).map { i in a[i][j] } }
    }

    mutating func predict() {
        var f = Self.diagonal([Double](repeating: 1, count: 8))
        for i in 0..<4 { f[i][i + 4] = 1 }
        let sizes = [mean[2], mean[3], mean[2], mean[3]]
        let q = Self.diagonal(sizes.map { pow2(p * $0) } + sizes.map { pow2(v * $0) })
        mean = (0..<8).map { i in (0..<8).reduce(0) { $0 + f[i][$1] * mean[$1] } }
        let fp = Self.multiply(f, covariance)
        covariance = Self.multiply(fp, Self.transpose(f))
        for i in 0..<8 { for j in 0..<8 { covariance[i][j] += q[i][j] } }
    }

    mutating func update(_ box: BoundingBox) {
        let z = [box.centerX, box.centerY, box.width, box.height]
        let sizes = [mean[2], mean[3], mean[2], mean[3]]
        let r = sizes.map { pow2(p * $0) }
        // S = H P Hᵀ + R is diagonal here because P's position block is diagonal.
        var gain = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 8)
        for i in 0..<8 {
            for k in 0..<4 { gain[i][k] = covariance[i][k] / (covariance[k][k] + r[k]) }
        }
        let innovation = (0..<4).map { z[$0] - mean[$0] }
        for i in 0..<8 { mean[i] += (0..<4).reduce(0) { $0 + gain[i][$1] * innovation[$1] } }
        var updated = covariance
        for i in 0..<8 {
            for j in 0..<8 {
                updated[i][j] -= (0..<4).reduce(0) { $0 + gain[i][$1] * covariance[$1][j] }
            }
        }
        covariance = updated
    }
}

private func pow2(_ x: Double) -> Double { x * x }

@Suite struct KalmanFilterTests {
    @Test func predictAndUpdateMatchTheDenseFilter() throws {
        let start = BoundingBox(minX: 100, minY: 50, width: 40, height: 120)
        var filter = KalmanFilter(initial: start)
        var dense = DenseKalman(start)
        var generator = SeededGenerator(seed: 3)
        for step in 0..<25 {
            filter.predict()
            dense.predict()
            if step % 3 != 2 {
                let box = BoundingBox(
                    minX: 100 + Double(step) * 4 + generator.uniform(-2...2), minY: 50,
                    width: 40 + generator.uniform(-1...1), height: 120)
                filter.update(with: box)
                dense.update(box)
            }
            for i in 0..<8 { #expect(abs(filter.state[i] - dense.mean[i]) < 1e-9) }
            let covariance = filter.covariance
            for i in 0..<8 {
                for j in 0..<8 {
                    #expect(abs(covariance[i * 8 + j] - dense.covariance[i][j]) < 1e-6)
                }
            }
        }
    }

    @Test func learnsAConstantVelocity() {
        var filter = KalmanFilter(initial: BoundingBox(minX: 0, minY: 0, width: 20, height: 60))
        for step in 1...30 {
            filter.predict()
            filter.update(with: BoundingBox(minX: Double(step) * 3, minY: 0, width: 20, height: 60))
        }
        #expect(abs(filter.velocity.centerX - 3) < 0.05)
        let before = filter.box.centerX
        filter.predict()
        #expect(abs(filter.box.centerX - before - 3) < 0.05)
    }

    @Test func updatePullsTowardTheMeasurementAndShrinksUncertainty() {
        var filter = KalmanFilter(initial: BoundingBox(minX: 0, minY: 0, width: 20, height: 60))
        filter.predict()
        let varianceBefore = filter.covariance[0]
        filter.update(with: BoundingBox(minX: 10, minY: 0, width: 20, height: 60))
        #expect(filter.box.centerX > 10 && filter.box.centerX < 20)
        #expect(filter.covariance[0] < varianceBefore)
    }
}
