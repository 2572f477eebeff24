import Dock
import Foundation
import Testing
import Tracking
import Units

/// A small table: 3 s of two seeds at 240 × 135, stride 1 and 15.
private func makeTable() throws -> QualityTable {
    var generator = QualityTableGenerator(duration: .seconds(3), width: 240, height: 135)
    generator.seeds = [1, 2]
    return try generator.generate(
        rig: FixedRig(), frameRates: [30], strides: [1, 15], scales: [0.5])
}

/// Measured once for the suite (debug builds are slow).
private let sharedTable = Result { try makeTable() }

@Suite struct QualityTableTests {
    private func table() throws -> QualityTable { try sharedTable.get() }

    @Test func sameSettingsSameTable() throws {
        let first = try table()
        #expect(first == (try makeTable()))
        #expect(first.rows.count == 2)
        #expect(first.seeds == [1, 2])
        let row = try #require(first.row(frameRate: 30, stride: 15, scale: 0.5))
        #expect(row.inferencesPerSecond == 2)
        for row in first.rows {
            #expect((0...1).contains(row.idf1))
            #expect(row.mota <= 1)
            #expect((0...0.5).contains(row.framingError))
        }
    }

    @Test func fewerInferencesTrackWorse() throws {
        // Two inferences a second against thirty. (Six against thirty is no clear loss on so
        // small a sample: people move a pixel or two a frame at this size, and the tracker's
        // prediction carries them between inferences.)
        let rows = try table().rows
        #expect(rows[0].mota > rows[1].mota)
        #expect(rows[0].idf1 > rows[1].idf1)
    }

    @Test func roundTripsThroughJSON() throws {
        let table = try table()
        let decoded = try JSONDecoder().decode(
            QualityTable.self, from: JSONEncoder().encode(table))
        #expect(decoded == table)
        #expect(table.markdown.split(separator: "\n").count == 2 + table.rows.count)
    }
}
