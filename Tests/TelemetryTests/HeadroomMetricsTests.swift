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
            "headroom_power_watts", "headroom_voltage_volts", "headroom_throttled",
            "headroom_gpu_load_ratio",
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
        // Publishing is not counting: readings are counted apart.
        #expect(metrics.pressureSamples.value() == nil)
        metrics.countPressureReadings(3)
        #expect(metrics.pressureSamples.value() == 3)
    }

    @Test func anUnchangedStatusIsSkippedAndTheNextChangeIsPublished() throws {
        let metrics = try HeadroomMetrics()
        let cool = PressureStatus(level: 0, factorLevels: ["systemTemperature": 0], headroom: 0.2)
        var hot = cool
        hot.level = 2
        hot.factorLevels = ["systemTemperature": 2]
        hot.headroom = nil
        for status in [cool, cool, hot, hot, cool] { metrics.publish(status) }
        #expect(metrics.pressureLevel.value() == 0)
        #expect(metrics.thermalHeadroom.value() == 0.2)
        #expect(metrics.pressureFactorLevel.value(labels: ["factor": "systemTemperature"]) == 0)
        metrics.publish(hot)
        #expect(metrics.pressureLevel.value() == 2)
        #expect(metrics.thermalHeadroom.value() == nil)
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

    @Test func boardSignalsAreExportedAndAStaleRailLeaves() throws {
        let metrics = try HeadroomMetrics()
        metrics.publish(
            PressureStatus(
                level: 2,
                board: BoardStatus(
                    railWatts: ["VDD_IN": 3.5, "VDD_SOC": 1.1],
                    volts: ["rp1_adc/in1": 3.3],
                    firmwareConditions: [
                        .init(reason: "under_voltage", isActive: true, hasOccurred: true)
                    ],
                    gpuLoad: ["17000000.gpu": 0.25])))
        #expect(metrics.powerWatts.value(labels: ["rail": "VDD_IN"]) == 3.5)
        #expect(metrics.voltageVolts.value(labels: ["sensor": "rp1_adc/in1"]) == 3.3)
        #expect(metrics.throttled.value(labels: ["reason": "under_voltage", "when": "now"]) == 1)
        #expect(
            metrics.throttled.value(labels: ["reason": "under_voltage", "when": "has_occurred"])
                == 1)
        #expect(metrics.gpuLoad.value(labels: ["device": "17000000.gpu"]) == 0.25)
        metrics.publish(PressureStatus(level: 0, board: BoardStatus(railWatts: ["VDD_IN": 3.4])))
        #expect(metrics.powerWatts.value(labels: ["rail": "VDD_SOC"]) == nil)
        #expect(metrics.throttled.value(labels: ["reason": "under_voltage", "when": "now"]) == nil)
    }
}
