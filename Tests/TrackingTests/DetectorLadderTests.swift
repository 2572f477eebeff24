import Testing
import Tracking
import Units

/// The detectors' own inference ladders, which the governor sheds through.
struct DetectorLadderTests {
    @Test("every detector's ladder goes from heaviest to lightest; HOG's never below 0.8")
    func detectorLadders() {
        for detector in DetectorKind.allCases {
            let ladder = detector.inferenceLadder
            let costs = ladder.map(\.relativeCost)
            #expect(costs == costs.sorted(by: >) && Set(costs).count == costs.count)
            #expect(ladder.first == InferenceSetting(stride: 1, scale: 1))
        }
        #expect(DetectorKind.hog.inferenceLadder.allSatisfy { $0.scale >= 0.8 })
    }
}
