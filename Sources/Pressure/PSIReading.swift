/// Pressure stall information for one resource (`/proc/pressure/{cpu,memory,io}`).
public struct PSIReading: Hashable, Sendable, Codable {
    /// The resource that tasks stalled on.
    public enum Resource: String, Hashable, Sendable, Codable, CaseIterable {
        /// CPU time.
        case cpu
        /// Memory (reclaim, swap-in, thrashing).
        case memory
        /// Block I/O.
        case io
    }

    /// One PSI line: the share of time stalled, averaged over three windows, and the total.
    public struct Averages: Hashable, Sendable, Codable {
        /// Percent of the last 10 s, 0…100.
        public var avg10: Double
        /// Percent of the last 60 s, 0…100.
        public var avg60: Double
        /// Percent of the last 300 s, 0…100.
        public var avg300: Double
        /// Total stall time since boot, in microseconds.
        public var totalMicroseconds: UInt64

        /// Averages of `avg10`, `avg60`, `avg300` percent and `totalMicroseconds`.
        public init(avg10: Double, avg60: Double, avg300: Double, totalMicroseconds: UInt64) {
            self.avg10 = avg10
            self.avg60 = avg60
            self.avg300 = avg300
            self.totalMicroseconds = totalMicroseconds
        }
    }

    /// The resource.
    public var resource: Resource
    /// Time at least one task stalled.
    public var some: Averages
    /// Time all non-idle tasks stalled at once; `nil` where the kernel reports none (CPU on
    /// older kernels).
    public var full: Averages?

    /// A reading for `resource`.
    public init(resource: Resource, some: Averages, full: Averages?) {
        self.resource = resource
        self.some = some
        self.full = full
    }

    /// Parses the file's text (`some avg10=… avg60=… avg300=… total=…` and an optional `full`
    /// line).
    ///
    /// - Throws: ``SensorFault/garbage(_:)`` when the text is not in that form.
    public init(resource: Resource, parsing text: String) throws(SensorFault) {
        var some: Averages?
        var full: Averages?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first else { continue }
            var values: [String: Substring] = [:]
            for field in fields.dropFirst() {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { values[String(parts[0])] = parts[1] }
            }
            guard let avg10 = values["avg10"].flatMap({ Double($0) }),
                let avg60 = values["avg60"].flatMap({ Double($0) }),
                let avg300 = values["avg300"].flatMap({ Double($0) }),
                let total = values["total"].flatMap({ UInt64($0) })
            else { throw .garbage(String(line)) }
            let averages = Averages(
                avg10: avg10, avg60: avg60, avg300: avg300, totalMicroseconds: total)
            switch kind {
            case "some": some = averages
            case "full": full = averages
            default: throw .garbage(String(line))
            }
        }
        guard let some else { throw .garbage(text) }
        self.init(resource: resource, some: some, full: full)
    }

    /// Parses the kernel's exact layout (`some avg10=0.00 avg60=0.00 avg300=0.00 total=0`, then
    /// an optional `full` line) straight from the file's bytes, without allocating; `nil` for
    /// anything else, which ``init(resource:parsing:)`` then judges. Gives the same values as
    /// that initializer: a decimal with at most 15 digits is an exact integer divided by an
    /// exact power of ten, which rounds once, as `Double(String)` does.
    static func parseCanonical(resource: Resource, _ bytes: UnsafeBufferPointer<UInt8>)
        -> PSIReading?
    {
        var cursor = PSIByteCursor(bytes: bytes)
        var some: Averages?
        var full: Averages?
        while !cursor.isAtEnd {
            let isFull: Bool
            if cursor.skip("some ") {
                isFull = false
            } else if cursor.skip("full ") {
                isFull = true
            } else {
                return nil
            }
            guard cursor.skip("avg10="), let avg10 = cursor.decimal(), cursor.skip(" avg60="),
                let avg60 = cursor.decimal(), cursor.skip(" avg300="),
                let avg300 = cursor.decimal(),
                cursor.skip(" total="), let total = cursor.unsigned()
            else { return nil }
            guard cursor.isAtEnd || cursor.skip("\n") else { return nil }
            let averages = Averages(
                avg10: avg10, avg60: avg60, avg300: avg300, totalMicroseconds: total)
            if isFull { full = averages } else { some = averages }
        }
        guard let some else { return nil }
        return PSIReading(resource: resource, some: some, full: full)
    }

    /// The stall percentage the classifier uses: `full avg10` for memory (every task waiting
    /// is what hurts), `some avg10` for CPU and I/O.
    public var stallPercent: Double {
        resource == .memory ? (full?.avg10 ?? some.avg10) : some.avg10
    }

    /// Whether `first` and `second` are of the same resource with the same
    /// ``stallPercent``: all of a reading a classifier uses.
    static func classifiesAlike(_ first: PSIReading, _ second: PSIReading) -> Bool {
        first.resource == second.resource && first.stallPercent == second.stallPercent
    }

    /// The entry `sensors` and `status` list for this resource.
    public var sensorEntry: SensorReading {
        // Literal text: nothing is formatted or allocated for an entry made 10 times a second.
        let (id, label): (SensorID, String) =
            switch resource {
            case .cpu: ("psi/cpu", "cpu pressure (some avg10)")
            case .memory: ("psi/memory", "memory pressure (full avg10)")
            case .io: ("psi/io", "io pressure (some avg10)")
            }
        return SensorReading(
            id: id, source: .psi, label: label, value: stallPercent, unit: "percent")
    }
}

/// A read position in a PSI file's bytes, for ``PSIReading/parseCanonical(resource:_:)``.
private struct PSIByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    /// Moves past `literal` when the bytes continue with it.
    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
        index += count
        return true
    }

    /// `digits[.digits]` with at most 15 digits in all.
    mutating func decimal() -> Double? {
        var numerator: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30, byte <= 0x39 {
                numerator = numerator * 10 + UInt64(byte - 0x30)
                digits += 1
                if seenPoint { scale += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint, digits > 0 {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0, digits <= 15, !seenPoint || scale > 0 else { return nil }
        var divisor = 1.0
        for _ in 0..<scale { divisor *= 10 }
        return Double(numerator) / divisor
    }

    /// Decimal digits fitting a `UInt64`.
    mutating func unsigned() -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(UInt64(bytes[index] - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }
}
