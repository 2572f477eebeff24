import Foundation
import Testing

@testable import Telemetry

/// The dashboards and alert rules in `dashboards/` may only query metrics Headroom exports.
@Suite struct DashboardContractTests {
    static let dashboards = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("dashboards")

    /// Every sample name the exposition can contain: gauges and counters as registered,
    /// histograms with their `_bucket`, `_sum` and `_count` series.
    static func exportedSampleNames() throws -> Set<String> {
        let registry = try HeadroomMetrics().registry
        var names = Set(registry.metricNames)
        for line in registry.exposition(.prometheusText).split(separator: "\n")
        where line.hasPrefix("# TYPE ") && line.hasSuffix(" histogram") {
            let name = line.split(separator: " ")[2]
            names.formUnion(["_bucket", "_sum", "_count"].map { name + $0 })
        }
        return names
    }

    static func queriedNames(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: "headroom_[a-z0-9_]+")
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            pattern.matches(in: text, range: range).map {
                String(text[Range($0.range, in: text)!])
            })
    }

    @Test func grafanaDashboardParsesAndQueriesOnlyExportedMetrics() throws {
        let data = try Data(
            contentsOf: Self.dashboards.appendingPathComponent("headroom-grafana.json"))
        let dashboard = try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        let expressions = panels.flatMap { panel in
            (panel["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String }
        }
        #expect(expressions.count >= 10)
        let queried = Self.queriedNames(in: expressions.joined(separator: "\n"))
        let exported = try Self.exportedSampleNames()
        #expect(
            queried.subtracting(exported).isEmpty, "not exported: \(queried.subtracting(exported))")
        for contract in [
            "headroom_pressure_level", "headroom_temperature_celsius",
            "headroom_pipeline_frame_rate_hertz", "headroom_launch_phase_seconds_bucket",
            "headroom_frames_dropped_total", "headroom_inference_stride",
        ] {
            #expect(queried.contains(contract))
        }
    }

    @Test func alertRulesQueryOnlyExportedMetrics() throws {
        let rules = try String(
            contentsOf: Self.dashboards.appendingPathComponent("headroom-alerts.yml"),
            encoding: .utf8)
        let queried = Self.queriedNames(in: rules)
        #expect(!queried.isEmpty)
        let exported = try Self.exportedSampleNames()
        #expect(
            queried.subtracting(exported).isEmpty, "not exported: \(queried.subtracting(exported))")
    }
}
