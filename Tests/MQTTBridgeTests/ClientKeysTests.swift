import Foundation
import Governor
import TestSupport
import Testing

@testable import MQTTBridge

@Suite struct ClientKeysTests {
    /// Clients registered with a governor under `names`, given the ids `ids` (in order).
    func clients(_ names: [String], ids: [String]) throws -> [HostGovernor.ClientSummary] {
        let governor = HostGovernor(configuration: HostGovernorConfiguration(processorCount: 2))
        for name in names {
            let registration = try ClientRegistration.decode(
                Data(
                    #"{"name": "\#(name)", "priority": 1, "nominalFrameRate": 5, "minFrameRate": 1, "ladder": [{"name": "full", "cost": 100}]}"#
                        .utf8))
            _ = try governor.register(registration, at: instant(0))
        }
        var summaries = governor.clients.sorted { $0.registration.name < $1.registration.name }
        for index in summaries.indices { summaries[index].id = ClientID(ids[index])! }
        return summaries
    }

    @Test("a client keeps its key while registered, whoever comes or goes beside it")
    func stableKeys() throws {
        var keys = ClientKeys()
        let first = try clients(["People detector"], ids: ["00000000000000f0"])
        #expect(Set(keys.assign(first).keys) == ["people_detector"])
        // A second of the same name with a smaller id: the first keeps its key.
        var second = try clients(["People detector"], ids: ["0000000000000001"])
        let both = first + second
        let assigned = keys.assign(both)
        #expect(assigned["people_detector"]?.id == "00000000000000f0")
        #expect(assigned["people_detector_2"]?.id == "0000000000000001")
        // The first leaves: the second keeps its own key; a newcomer takes the free one.
        #expect(Set(keys.assign(second).keys) == ["people_detector_2"])
        second += try clients(["People detector"], ids: ["0000000000000002"])
        let later = keys.assign(second)
        #expect(later["people_detector"]?.id == "0000000000000002")
        #expect(later["people_detector_2"]?.id == "0000000000000001")
        #expect(ClientKeys.slug("Front door! (2)") == "front_door_2")
    }
}
