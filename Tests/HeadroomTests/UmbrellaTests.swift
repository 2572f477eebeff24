import Headroom
import Testing

/// `import Headroom` alone is enough to use the toolkit's modules together.
struct UmbrellaTests {
    @Test("one import prices a session, classifies pressure and sizes a reserve")
    func oneImport() throws {
        let estimate = HardwareCostEstimator(profile: .genericDesktop).cost(
            of: PipelineRun.defaultSession)
        #expect(estimate.fits)
        #expect(ByteCount(parsing: "4G") == .gibibytes(4))
        #expect(PressureLevel.serious > PressureLevel.fair)
        #expect(try HeadroomMetrics().registry.exposition(.prometheusText).contains("headroom_"))
    }
}
