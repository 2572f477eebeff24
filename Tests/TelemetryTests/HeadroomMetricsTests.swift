import Testing

@testable import Telemetry

@Suite struct HeadroomMetricsTests {
    @Test func contractNamesAreRegistered() throws {
        let names = Set(try HeadroomMetrics().registry.metricNames)
        let contract = [
            "headroom_pressure_level", "headroom_temperature_celsius",
            "headroom_thermal_headroom_ratio", "headroom_hardware_cost_ratio",
            "headroom_system_pressure_cost_ratio", "headroom_pipeline_frame_rate_hertz",
            "headroom_inference_stride", "headroom_frames_total", "headroom_frames_dropped_total",
            "headroom_launch_phase_seconds", "headroom_governor_changes_total",
        ]
        #expect(Set(contract).isSubset(of: names))
        #expect(names.allSatisfy { $0.hasPrefix("headroom_") })
    }

    @Test func staleSensorIsMarkedStaleAndHasNoTemperature() throws {
        let metrics = try HeadroomMetrics()
        let cpu = ["sensor": "cpu", "source": "hwmon"]
        metrics.publish(
            PressureStatus(
                level: 1, factorLevels: ["thermal": 1], headroom: 0.4, sustainableShare: 0.8,
                sensors: [
                    SensorSample(
                        sensor: "cpu", source: "hwmon", celsius: 72, highCelsius: 80,
                        criticalCelsius: 100)
                ]))
        #expect(metrics.temperature.value(labels: cpu) == 72)
        #expect(metrics.sensorStale.value(labels: cpu) == 0)
        metrics.publish(
            PressureStatus(
                level: 1, headroom: .nan,
                sensors: [SensorSample(sensor: "cpu", source: "hwmon", celsius: nil)]))
        #expect(metrics.temperature.value(labels: cpu) == nil)
        #expect(metrics.temperatureHigh.value(labels: cpu) == nil)
        #expect(metrics.sensorStale.value(labels: cpu) == 1)
        #expect(metrics.thermalHeadroom.value() == nil)
        #expect(metrics.sustainableBudget.value() == nil)
        #expect(metrics.pressureFactorLevel.value(labels: ["factor": "thermal"]) == nil)
        #expect(metrics.pressureSamples.value() == 2)
    }

    @Test func sensorsThatDisappearLeaveTheExposition() throws {
        let metrics = try HeadroomMetrics()
        metrics.publish(
            PressureStatus(
                level: 0,
                sensors: [
                    SensorSample(sensor: "a", source: "hwmon", celsius: 40),
                    SensorSample(sensor: "b", source: "hwmon", celsius: 41),
                ]))
        metrics.publish(
            PressureStatus(
                level: 0, sensors: [SensorSample(sensor: "a", source: "hwmon", celsius: 42)]))
        let text = metrics.registry.exposition(.prometheusText)
        #expect(text.contains("headroom_temperature_celsius{sensor=\"a\",source=\"hwmon\"} 42.0"))
        #expect(!text.contains("sensor=\"b\""))
    }

    @Test func pipelineAndLaunchPhasesArePublished() throws {
        let metrics = try HeadroomMetrics()
        metrics.publishPipeline(targetFrameRate: 30, actualFrameRate: 29.5, inferenceStride: 2)
        metrics.recordLaunchPhase("sessionStart", seconds: 0.042)
        #expect(metrics.frameRate.value(labels: ["kind": "actual"]) == 29.5)
        #expect(metrics.inferenceStride.value() == 2)
        #expect(metrics.launchPhase.count(labels: ["phase": "sessionStart"]) == 1)
    }
}
