import Headroom
import Testing

/// The run's report gives the time at each rung of its ladder.
struct RunReportRungTests {
    @Test("run.md has a row for each rung the run ran at, with its seconds, frames and calls")
    func markdownListsTheRungs() async throws {
        var options = RunOptions(
            duration: .seconds(2), scenario: .thermalRamp, source: .scene(seed: 3, style: .twoTone))
        options.timing = .virtual
        let summary = try await PipelineRun(options: options).run()
        let rungs = try #require(summary.rungs)
        let markdown = RunReport.markdown(summary)
        #expect(markdown.contains("## Time at each rung"))
        for rung in rungs {
            #expect(
                markdown.contains(
                    "| \(rung.setting) | \(rung.time.seconds.fixed(1)) | \(rung.frames) |"))
        }
    }
}
