import Foundation
import Testing

@testable import Pressure

@Suite struct SysfsValueFileTests {
    @Test func rereadsTheOpenFileWhenItsValueChanges() throws {
        let tree = try FixtureTree()
        try tree.write("temp", "45000")
        let file = try SysfsValueFile(path: tree.root + "/temp")
        #expect(try file.readInteger() == 45000)
        try tree.write("temp", "-1500")
        #expect(try file.readInteger() == -1500)
    }

    @Test(arguments: ["", "abc", "12a", "1 2", "--5", "99999999999999999999999"])
    func garbageIsAFaultNotZero(text: String) throws {
        let tree = try FixtureTree()
        try tree.write("temp", text)
        let file = try SysfsValueFile(path: tree.root + "/temp")
        #expect {
            try file.readInteger()
        } throws: { error in
            guard case .garbage = error as? SensorFault else { return false }
            return true
        }
    }

    @Test("a FIFO or directory where an attribute should be is refused at once, never waited on")
    func onlyRegularFilesAreRead() throws {
        let tree = try FixtureTree()
        #expect(mkfifo(tree.root + "/temp", 0o644) == 0)
        for path in [tree.root + "/temp", tree.root] {
            #expect {
                try SysfsValueFile(path: path)
            } throws: { error in
                guard case .other(let reason) = error as? SensorFault else { return false }
                return reason == "not a regular file"
            }
        }
    }

    @Test func aMissingFileIsVanished() throws {
        let tree = try FixtureTree()
        #expect(throws: SensorFault.vanished) { try SysfsValueFile(path: tree.root + "/nope") }
    }

    @Test func aReadErrorFromTheKernelIsReported() throws {
        // /proc/self/mem has nothing mapped at offset 0: pread fails with EIO, as a sensor
        // whose device does not answer.
        let tree = try FixtureTree()
        try tree.symlink("temp", to: "/proc/self/mem")
        let file = try SysfsValueFile(path: tree.root + "/temp")
        #expect(throws: SensorFault.ioError) { try file.readInteger() }
    }

    @Test func errnoValuesMapToNamedFaults() {
        #expect(SensorFault(errno: ENODATA) == .noData)
        #expect(SensorFault(errno: EIO) == .ioError)
        #expect(SensorFault(errno: EINVAL) == .invalidArgument)
        #expect(SensorFault(errno: ENODEV) == .vanished)
        #expect(SensorFault(errno: ENOENT) == .vanished)
        #expect(SensorFault(errno: EACCES) == .systemError(errno: EACCES))
        #expect(SensorFault.noData.description.contains("ENODATA"))
    }

    @Test func implausibleTemperaturesAreOutOfRange() throws {
        #expect(throws: SensorFault.notAvailable(-100)) {
            try Celsius.plausible(millidegrees: -100_000)
        }
        #expect(throws: SensorFault.notAvailable(-256)) {
            try Celsius.plausible(millidegrees: -256_000)
        }
        #expect(throws: SensorFault.outOfRange(500)) {
            try Celsius.plausible(millidegrees: 500_000)
        }
        #expect(throws: SensorFault.outOfRange(0xFFFF)) {
            try Celsius.plausible(millidegrees: 0xFFFF * 1000)
        }
        #expect(try Celsius.plausible(millidegrees: -99_999) == Celsius(-99.999))
        #expect(try Celsius.plausible(millidegrees: 499_999) == Celsius(499.999))
        // Above any critical limit, yet real: it must reach the classifier.
        #expect(try Celsius.plausible(millidegrees: 200_000) == Celsius(200))
    }
}
