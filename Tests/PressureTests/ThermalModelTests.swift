import TestSupport
import Testing

@testable import Pressure

@Suite struct ThermalModelTests {
    @Test func approachesTheSteadyStateWithItsTimeConstant() {
        var model = ThermalModel(ambient: 30, riseAtFullLoad: 60, timeConstant: 10)
        model.advance(by: 10, load: 1)
        #expect(abs(model.temperature - (90 - 60 * 0.36787944117)) < 1e-6)
        model.advance(by: 1000, load: 1)
        #expect(abs(model.temperature - 90) < 1e-6)
        model.advance(by: 1000, load: 0)
        #expect(abs(model.temperature - 30) < 1e-6)
    }

    @Test func theStepSizeDoesNotChangeTheResult() {
        var coarse = ThermalModel()
        var fine = ThermalModel()
        coarse.advance(by: 30, load: 0.7)
        for _ in 0..<300 { fine.advance(by: 0.1, load: 0.7) }
        #expect(abs(coarse.temperature - fine.temperature) < 1e-9)
    }

    @Test func aLoadCurveHeatsTheMachineThroughTheLevels() {
        let source = ThermalModelSource(
            model: ThermalModel(ambient: 30, riseAtFullLoad: 80, timeConstant: 20),
            load: LoadCurve(points: [(0, 0), (10, 1), (200, 1)]))
        var classifier = PressureClassifier()
        var levels: [PressureLevel] = []
        for second in stride(from: 0.0, through: 200, by: 1) {
            let reading = classifier.classify(
                PressureSample(
                    time: instant(second), sensors: source.readTemperatures(at: instant(second))))
            #expect(reading.simulated)
            #expect(reading.sensors[0].source == .model)
            #expect(reading.sensors[0].label.contains("simulated"))
            if levels.last != reading.level { levels.append(reading.level) }
        }
        #expect(levels == [.nominal, .fair, .serious, .critical, .shutdown])
    }

    @Test func theLoadCurveInterpolates() {
        let curve = LoadCurve(points: [(10, 1), (0, 0)])
        #expect(curve.load(at: instant(-5)) == 0)
        #expect(curve.load(at: instant(5)) == 0.5)
        #expect(curve.load(at: instant(50)) == 1)
    }
}
