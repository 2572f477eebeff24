import Governor
import Locking
import TestSupport
import Testing
import Units

@testable import Pipeline

/// The thermal model's load: the pipeline's work relative to the full settings it started at.
struct ModelledLoadTests {
    @Test(
        "full settings are load 1 whatever the top rung costs; a lighter rung is its share of them")
    func loadIsRelativeToTheFullSettings() {
        let regions = InferenceSetting(stride: 1, scale: 1, regions: 3)
        let full = PipelineSettings(frameRate: 10, inference: regions)
        let current = LockedState(full)
        let load = ModelledLoad(full: full) { current.withLock { $0 } }
        #expect(load.load(at: instant(0)) == 1)
        // (1 + 1.5) / (1 + 3): half the regions' calls, and the frame's own work kept.
        current.withLock {
            $0 = PipelineSettings(
                frameRate: 10, inference: InferenceSetting(stride: 2, scale: 1, regions: 3))
        }
        #expect(abs(load.load(at: instant(1)) - 0.625) < 1e-12)
        current.withLock { $0 = PipelineSettings(frameRate: 5, inference: regions) }
        #expect(abs(load.load(at: instant(2)) - 0.5) < 1e-12)
        current.withLock {
            $0 = PipelineSettings(frameRate: 10, inference: regions, isCapturing: false)
        }
        #expect(load.load(at: instant(3)) == 0)
    }
}
