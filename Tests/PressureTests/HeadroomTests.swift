import Testing
import Units

@testable import Pressure

@Suite struct HeadroomTests {
    @Test func headroomIsOneAtTheSeriousThreshold() {
        var classifier = PressureClassifier()
        let reading = classify([sensor("cpu", 80)], with: &classifier)
        #expect(reading.headroom.current == 1)
        let cool = classify([sensor("cpu", 25)], with: &classifier)
        #expect(cool.headroom.current == 0)
    }

    @Test func theForecastIsNaNUntilThereAreEnoughSamples() {
        var classifier = PressureClassifier()
        #expect(classify([sensor("cpu", 50)], with: &classifier, at: 0).headroom.forecast.isNaN)
        #expect(classify([sensor("cpu", 52)], with: &classifier, at: 1).headroom.forecast.isNaN)
        #expect(!classify([sensor("cpu", 54)], with: &classifier, at: 2).headroom.forecast.isNaN)
    }

    @Test func theForecastExtrapolatesTheTrend() throws {
        var classifier = PressureClassifier()
        var reading: PressureReading?
        // +1 °C per second from 60 °C: in 10 s it will be at 74 + 10 = 84 °C, past H = 80.
        for second in 0...14 {
            reading = classify(
                [sensor("cpu", 60 + Double(second))], with: &classifier, at: Double(second))
        }
        let headroom = try #require(reading?.headroom)
        // Android's scale: 0 at H − 30 = 50 °C, 1.0 at H = 80 °C.
        #expect(abs(headroom.current - (74 - 50) / 30.0) < 1e-9)
        #expect(abs(headroom.forecast - (84 - 50) / 30.0) < 1e-9)
        #expect(headroom.forecast > 1)
        #expect(headroom.planning == headroom.forecast)
    }

    @Test func theBudgetShareIsWholeWhenCoolAndShrinksAsItHeats() {
        let budget = SustainableBudget()
        #expect(budget.share(headroom: 0.2, level: .nominal) == 1)
        #expect(budget.share(headroom: 1.0, level: .serious) == 0.5)
        #expect(budget.share(headroom: 5, level: .serious).fraction == budget.minimum)
        #expect(budget.share(headroom: .nan, level: .nominal) == 1)
        #expect(
            budget.share(headroom: .nan, level: .critical)
                < budget.share(headroom: .nan, level: .fair))
        #expect(budget.share(headroom: 0.1, level: .shutdown) == 0)
        var previous = Share.whole
        for step in 0...200 {
            let share = budget.share(headroom: Double(step) / 100, level: .nominal)
            #expect(share <= previous)
            previous = share
        }
    }

    @Test func theReadingCarriesTheShareForTheGovernor() {
        var classifier = PressureClassifier()
        let hot = classify([sensor("cpu", 80)], with: &classifier)
        #expect(hot.sustainableShare == 0.5)
    }

    /// Android's formula over a grid of thresholds and temperatures: 1.0 at H, 0 at H − 30
    /// and below, linear between (slope 1/30 per °C), never negative.
    @Test func headroomIsAndroidsLinearScaleBelowTheSeriousThreshold() {
        for high in stride(from: 40.0, through: 110, by: 5) {
            #expect(PressureClassifier.headroom(celsius: high, serious: high, span: 30) == 1)
            #expect(PressureClassifier.headroom(celsius: high - 30, serious: high, span: 30) == 0)
            var previous = -1.0
            for tenth in 0...900 {
                let celsius = high - 60 + Double(tenth) / 10
                let headroom = PressureClassifier.headroom(
                    celsius: celsius, serious: high, span: 30)
                #expect(headroom >= 0)
                #expect(headroom >= previous)
                if celsius >= high - 30 {
                    #expect(abs(headroom - (celsius - (high - 30)) / 30) < 1e-12)
                } else {
                    #expect(headroom == 0)
                }
                previous = headroom
            }
        }
        #expect(PressureClassifier.headroom(celsius: .nan, serious: 80, span: 30).isNaN)
    }

    /// The classifier's reading uses the sensor's own serious threshold: a zone with a
    /// passive trip at 95 °C has headroom 0.5 at 80 °C.
    @Test func headroomFollowsEachSensorsOwnThreshold() {
        var classifier = PressureClassifier()
        let reading = classify([sensor("zone", 80, high: 95, critical: 105)], with: &classifier)
        #expect(abs(reading.headroom.current - 0.5) < 1e-12)
    }

    /// At 4 Hz, the trend keeps one point a second: no forecast until three points 1 s
    /// apart, then an exact extrapolation of a linear rise from the last point, whatever its
    /// slope.
    @Test func theForecastNeedsThreePointsOneSecondApartAndIsExactForALinearRise() {
        for slope in [-2.0, -0.5, 0, 0.25, 1, 3] {
            var classifier = PressureClassifier()
            for step in 0...12 {
                let time = Double(step) / 4
                let reading = classify(
                    [sensor("cpu", 60 + slope * time)], with: &classifier, at: time)
                if time < 2 {
                    #expect(reading.headroom.forecast.isNaN, "slope \(slope) at \(time) s")
                } else {
                    // Points at 0, 1, 2 (and 3) s; 10 s after the last: 60 + slope × (last + 10).
                    let last = time.rounded(.down)
                    let expected = max(0, (60 + slope * (last + 10) - 50) / 30)
                    #expect(abs(reading.headroom.forecast - expected) < 1e-9, "slope \(slope)")
                }
            }
        }
    }

    /// Samples due a second apart come a second apart give or take their wake-up latency:
    /// a point a little early (within 10 %) still counts.
    @Test func aPointALittleEarlyStillCounts() {
        var classifier = PressureClassifier()
        for time in [0, 1.02, 1.97] {
            _ = classify([sensor("cpu", 60 + time)], with: &classifier, at: time)
        }
        let reading = classify([sensor("cpu", 62.95)], with: &classifier, at: 2.95)
        #expect(!reading.headroom.forecast.isNaN)
    }
}
