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

    /// The stall percentage the classifier uses: `full avg10` for memory (every task waiting
    /// is what hurts), `some avg10` for CPU and I/O.
    public var stallPercent: Double {
        resource == .memory ? (full?.avg10 ?? some.avg10) : some.avg10
    }

    /// The entry `sensors` and `status` list for this resource.
    public var sensorEntry: SensorReading {
        SensorReading(
            id: SensorID("psi/\(resource.rawValue)"), source: .psi,
            label: "\(resource.rawValue) pressure (\(resource == .memory ? "full" : "some") avg10)",
            value: stallPercent, unit: "percent")
    }
}
