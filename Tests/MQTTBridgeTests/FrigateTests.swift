import Files
import Foundation
import Governor
import MQTTBridge
import Testing

@Suite struct FrigateConfigurationTests {
    /// The configuration in `json`.
    func configuration(_ json: String) throws(ConfigurationError) -> FrigateConfiguration {
        try decodeStrictly(FrigateConfiguration.self, from: Data(json.utf8), file: "frigate.json")
    }

    @Test(
        "a configuration: defaults for the prefix, the name and pausing; a registration on profiles alone"
    )
    func decodes() throws {
        let frigate = try configuration(
            """
            {"cameras": ["front_door", "yard"], "priority": 3, "detectFrameRate": 5,
             "ladder": [{"name": "none", "cost": 100}, {"name": "reduced", "cost": 55}]}
            """)
        #expect(frigate.topicPrefix == "frigate" && frigate.name == "frigate" && frigate.pauses)
        let registration = frigate.registration
        #expect(registration.nominalFrameRate == registration.minFrameRate)
        #expect(registration.ladder.map(\.name) == ["none", "reduced"])
        #expect(registration.brokenRule == nil)
    }

    @Test("what cannot govern a Frigate is refused, naming the field")
    func refused() {
        let ladder = #""ladder": [{"name": "none", "cost": 100}]"#
        for (json, field) in [
            (#"{"cameras": [], "priority": 3, "detectFrameRate": 5, \#(ladder)}"#, "cameras"),
            (#"{"cameras": ["a b"], "priority": 3, "detectFrameRate": 5, \#(ladder)}"#, "cameras"),
            (
                #"{"cameras": ["a", "a"], "priority": 3, "detectFrameRate": 5, \#(ladder)}"#,
                "cameras"
            ),
            (#"{"cameras": ["a"], "priority": 300, "detectFrameRate": 5, \#(ladder)}"#, "priority"),
            (
                #"{"cameras": ["a"], "priority": 3, "detectFrameRate": 0, \#(ladder)}"#,
                "detectFrameRate"
            ),
            (#"{"cameras": ["a"], "priority": 3, "detectFrameRate": 5, "ladder": []}"#, "ladder"),
            (
                #"{"cameras": ["a"], "priority": 3, "detectFrameRate": 5, "ladder": [{"name": "a", "cost": 1}, {"name": "b", "cost": 2}]}"#,
                "ladder"
            ),
            (
                #"{"cameras": ["a"], "priority": 3, "detectFrameRate": 5, "ladder": [{"name": "my profile", "cost": 1}]}"#,
                "ladder"
            ),
            (
                #"{"cameras": ["a"], "priority": 3, "detectFrameRate": 5, \#(ladder), "topicPrefix": "a/#"}"#,
                "topicPrefix"
            ),
            (
                #"{"cameras": ["a"], "priority": 3, "detectFrameRate": 5, \#(ladder), "topicPrefix": "$SYS"}"#,
                "topicPrefix"
            ),
            (
                #"{"cameras": ["a"], "priority": 3, "detectFrameRate": 5, \#(ladder), "camera": "a"}"#,
                "camera"
            ),
        ] {
            do {
                _ = try configuration(json)
                Issue.record("accepted: \(json)")
            } catch {
                #expect(error.description.hasPrefix("frigate.json: \(field)"), "\(error)")
            }
        }
    }
}

@Suite struct FrigateStatsTests {
    @Test(
        "frigate/stats: cameras under `cameras` (0.14+) or at the top level, summed; detectors' inference"
    )
    func stats() throws {
        let cameras = """
            "front": {"camera_fps": 5.0, "process_fps": 5.0, "skipped_fps": 0.0, "detection_fps": 1.5},
            "yard": {"camera_fps": 5.0, "process_fps": 4.5, "skipped_fps": 0.5, "detection_fps": 0.5}
            """
        let detectors =
            #""detectors": {"coral": {"inference_speed": 9.0}, "cpu": {"inference_speed": 40.0}}"#
        for json in [
            "{\"cameras\": {\(cameras)}, \(detectors)}",
            "{\(cameras), \(detectors), \"service\": {}}",
        ] {
            let stats = try #require(FrigateStats(json: Array(json.utf8)), "\(json)")
            #expect(stats.processedPerSecond == 9.5 && stats.skippedPerSecond == 0.5)
            #expect(stats.inferenceSeconds.p50 == 0.04 && stats.inferenceSeconds.p95 == 0.04)
        }
        #expect(FrigateStats(json: Array("{\"cameras\": {\(cameras)}}".utf8)) == nil, "no detector")
        #expect(FrigateStats(json: Array("not json".utf8)) == nil)
        // A payload that lies: rates and times no camera or detector has are left out, so a
        // work report made from them cannot overflow.
        let lying = """
            {"cameras": {"front": {"camera_fps": 5, "process_fps": 1e300, "skipped_fps": -3},
             "yard": {"camera_fps": 5, "process_fps": 4.0, "skipped_fps": 1.0}},
             "detectors": {"cpu": {"inference_speed": 1e300}, "tpu": {"inference_speed": 8.0}}}
            """
        let stats = try #require(FrigateStats(json: Array(lying.utf8)))
        #expect(stats.processedPerSecond == 4 && stats.skippedPerSecond == 1)
        #expect(stats.inferenceSeconds.p50 == 0.008 && stats.inferenceSeconds.p95 == 0.008)
    }
}
