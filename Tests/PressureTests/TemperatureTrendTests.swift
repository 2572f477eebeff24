import Foundation
import Testing

@testable import Pressure

@Suite struct TemperatureTrendTests {
    /// The least-squares extrapolation computed directly from `points`.
    private func referenceForecast(_ points: [(Double, Double)], seconds: Double) -> Double {
        let n = Double(points.count)
        let meanTime = points.map(\.0).reduce(0, +) / n
        let meanValue = points.map(\.1).reduce(0, +) / n
        let covariance = points.map { ($0.0 - meanTime) * ($0.1 - meanValue) }.reduce(0, +)
        let variance = points.map { ($0.0 - meanTime) * ($0.0 - meanTime) }.reduce(0, +)
        let slope = covariance / variance
        let last = points[points.count - 1].0
        return meanValue + slope * (last - meanTime) + slope * seconds
    }

    @Test func runningSumsMatchADirectFitOverHoursOfSamples() {
        var trend = TemperatureTrend()
        var generator = SystemRandomNumberGenerator()
        var kept: [(Double, Double)] = []
        let window = 30.0
        // Three hours at 10 Hz from a large boot time: many rebuilds and evictions.
        var time = 86_400.0
        for step in 0..<108_000 {
            time += 0.1
            let celsius =
                50 + 10 * sin(Double(step) / 3000)
                + Double.random(in: -0.5...0.5, using: &generator)
            trend.add(time: time, celsius: celsius, window: window)
            kept.append((time, celsius))
            kept.removeAll { time - $0.0 > window }
            if kept.count > TemperatureTrend.capacity {
                kept.removeFirst(kept.count - TemperatureTrend.capacity)
            }
            if step > 2, step % 9_973 == 0 || step == 107_999 {
                let expected = referenceForecast(kept, seconds: 10)
                #expect(abs(trend.forecast(seconds: 10, minimumSamples: 3) - expected) < 1e-6)
            }
        }
    }

    @Test func aWindowShorterThanTheCapacityForgetsOldPoints() {
        var trend = TemperatureTrend()
        // A steep rise long ago, then flat: only the flat part is within the window.
        for second in 0..<10 {
            trend.add(time: Double(second), celsius: Double(second) * 10, window: 5)
        }
        for second in 10..<20 { trend.add(time: Double(second), celsius: 60, window: 5) }
        #expect(abs(trend.forecast(seconds: 30, minimumSamples: 3) - 60) < 1e-9)
    }

    @Test func aRepeatedTimeReplacesAndAnEarlierTimeStartsOver() {
        var trend = TemperatureTrend()
        trend.add(time: 1, celsius: 40, window: 30)
        trend.add(time: 2, celsius: 41, window: 30)
        trend.add(time: 2, celsius: 42, window: 30)
        trend.add(time: 3, celsius: 44, window: 30)
        // (1, 40), (2, 42), (3, 44): slope 2.
        #expect(abs(trend.forecast(seconds: 1, minimumSamples: 3) - 46) < 1e-9)
        trend.add(time: 0.5, celsius: 70, window: 30)
        #expect(trend.forecast(seconds: 1, minimumSamples: 2).isNaN)
    }

    @Test func tooFewPointsGiveNoForecast() {
        var trend = TemperatureTrend()
        #expect(trend.forecast(seconds: 10, minimumSamples: 3).isNaN)
        trend.add(time: 0, celsius: 50, window: 30)
        trend.add(time: 1, celsius: 51, window: 30)
        #expect(trend.forecast(seconds: 10, minimumSamples: 3).isNaN)
        #expect(abs(trend.forecast(seconds: 10, minimumSamples: 2) - 61) < 1e-9)
    }
}
