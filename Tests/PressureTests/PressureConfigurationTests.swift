import Files
import Foundation
import Testing

@testable import Pressure

@Suite struct PressureConfigurationTests {
    private func decode(_ json: String) throws(ConfigurationError) -> PressureConfiguration {
        try decodeStrictly(PressureConfiguration.self, from: Data(json.utf8), file: "pressure.json")
    }

    @Test func anEmptyObjectGivesTheDefaults() throws {
        #expect(try decode("{}") == PressureConfiguration())
    }

    @Test func overridesChangeTheRules() throws {
        let configuration = try decode(
            """
            {"temperature": {"hysteresis": 1, "sensors": {"cpu": {"high": 60, "critical": 70}}},
             "cpuPressure": {"fair": 10}}
            """)
        var classifier = PressureClassifier(configuration: configuration)
        #expect(classify([sensor("cpu", 60)], with: &classifier).level == .serious)
        #expect(classify([sensor("cpu", 58.9)], with: &classifier).level == .fair)
        #expect(configuration.cpuPressure.fair == 10)
        #expect(configuration.cpuPressure.serious == 50)
    }

    @Test(arguments: [
        (#"{"temprature": {}}"#, "pressure.json: temprature: unknown key"),
        (
            #"{"temperature": {"hysteresis": -1}}"#,
            "pressure.json: temperature.hysteresis: expected"
        ),
        (
            #"{"cpuPressure": {"fair": 60}}"#,
            "pressure.json: cpuPressure.serious: expected more than fair"
        ),
        (
            #"{"temperature": {"sensors": {"x": {"high": 90, "critical": 80}}}}"#,
            "pressure.json: temperature.sensors.x.critical: expected more than high"
        ),
        (#"{"budget": {"minimum": 2}}"#, "pressure.json: budget.minimum: expected a number in 0…1"),
        (
            #"{"headroom": {"minimumSamples": 1}}"#,
            "pressure.json: headroom.minimumSamples: expected"
        ),
    ])
    func badFilesNameTheField(json: String, message: String) {
        #expect {
            try decode(json)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
