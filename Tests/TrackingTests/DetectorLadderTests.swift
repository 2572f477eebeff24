import Foundation
import Testing
import Tracking
import Units

/// The detectors' own inference ladders, which the governor sheds through.
struct DetectorLadderTests {
    @Test(
        "every detector's ladder goes from heaviest to lightest; HOG's never below 0.8; the neural detector's starts at regions"
    )
    func detectorLadders() {
        for detector in DetectorKind.allCases {
            let ladder = detector.inferenceLadder
            let costs = ladder.map(\.relativeCost)
            #expect(costs == costs.sorted(by: >) && Set(costs).count == costs.count)
            let wholeFrame = ladder.first { $0.regions == 0 }
            #expect(wholeFrame == InferenceSetting(stride: 1, scale: 1))
            #expect(ladder.allSatisfy { $0.regions == 0 } == (detector != .personSSD))
        }
        #expect(DetectorKind.hog.inferenceLadder.allSatisfy { $0.scale >= 0.8 })
        #expect(DetectorKind.personSSD.inferenceLadder.first?.regions == 3)
    }

    @Test("a region budget is decoded, checked and encoded only when set")
    func regionBudget() throws {
        let decoder = JSONDecoder()
        let regions = try decoder.decode(
            InferenceSetting.self, from: Data(#"{"stride":1,"scale":1,"regions":3}"#.utf8))
        #expect(regions == InferenceSetting(stride: 1, scale: 1, regions: 3))
        #expect(regions.relativeCost == 3 && regions.description == "3 regions")
        #expect(
            throws: DecodingError.self,
            performing: {
                try decoder.decode(
                    InferenceSetting.self, from: Data(#"{"stride":1,"scale":1,"regions":17}"#.utf8))
            })
        let whole = InferenceSetting(stride: 2, scale: 0.8)
        let encoded = String(decoding: try JSONEncoder().encode(whole), as: UTF8.self)
        #expect(!encoded.contains("regions"))
        #expect(try decoder.decode(InferenceSetting.self, from: Data(encoded.utf8)) == whole)
    }
}
