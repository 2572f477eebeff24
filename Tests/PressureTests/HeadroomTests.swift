import Testing

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
        #expect(budget.share(headroom: 5, level: .serious) == budget.minimum)
        #expect(budget.share(headroom: .nan, level: .nominal) == 1)
        #expect(
            budget.share(headroom: .nan, level: .critical)
                < budget.share(headroom: .nan, level: .fair))
        #expect(budget.share(headroom: 0.1, level: .shutdown) == 0)
        var previous = 1.0
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
}
