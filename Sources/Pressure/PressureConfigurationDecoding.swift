import Files

// Strict decoding of the configuration file: every key optional, unknown keys rejected,
// values checked with the field path in the error.

extension PressureConfiguration {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case temperature, throttling, cpuPressure, memoryPressure, ioPressure, headroom, budget
        case sampling
    }

    /// Decodes a configuration; missing keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PressureConfiguration()
        temperature =
            try container.decodeIfPresent(TemperatureRules.self, forKey: .temperature)
            ?? defaults.temperature
        func rules(_ key: CodingKeys, _ fallback: RatioRules) throws -> RatioRules {
            guard let rules = try container.decodeIfPresent(PartialRatioRules.self, forKey: key)
            else {
                return fallback
            }
            return try rules.applied(to: fallback, at: decoder.codingPath + [key])
        }
        throttling = try rules(.throttling, defaults.throttling)
        cpuPressure = try rules(.cpuPressure, defaults.cpuPressure)
        memoryPressure = try rules(.memoryPressure, defaults.memoryPressure)
        ioPressure = try rules(.ioPressure, defaults.ioPressure)
        headroom =
            try container.decodeIfPresent(HeadroomRules.self, forKey: .headroom)
            ?? defaults.headroom
        budget =
            try container.decodeIfPresent(SustainableBudget.self, forKey: .budget)
            ?? defaults.budget
        sampling =
            try container.decodeIfPresent(SamplingRules.self, forKey: .sampling)
            ?? defaults.sampling
    }
}

/// Ratio rules as written in a file, where each field may be missing.
private struct PartialRatioRules: Decodable {
    var fair, serious, critical, hysteresis: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case fair, serious, critical, hysteresis
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fair = try container.decodeIfPresent(Double.self, forKey: .fair)
        serious = try container.decodeIfPresent(Double.self, forKey: .serious)
        critical = try container.decodeIfPresent(Double.self, forKey: .critical)
        hysteresis = try container.decodeIfPresent(Double.self, forKey: .hysteresis)
    }

    func applied(
        to fallback: PressureConfiguration.RatioRules, at path: [any CodingKey]
    ) throws -> PressureConfiguration.RatioRules {
        let rules = PressureConfiguration.RatioRules(
            fair: fair ?? fallback.fair, serious: serious ?? fallback.serious,
            critical: critical ?? fallback.critical, hysteresis: hysteresis ?? fallback.hysteresis)
        func fail(_ key: CodingKeys, _ problem: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: path + [key], debugDescription: problem))
        }
        guard rules.fair >= 0 else { throw fail(.fair, "expected a number ≥ 0, got \(rules.fair)") }
        guard rules.serious > rules.fair else {
            throw fail(.serious, "expected more than fair (\(rules.fair)), got \(rules.serious)")
        }
        guard rules.critical > rules.serious else {
            throw fail(
                .critical, "expected more than serious (\(rules.serious)), got \(rules.critical)")
        }
        guard rules.hysteresis >= 0 else {
            throw fail(.hysteresis, "expected a number ≥ 0, got \(rules.hysteresis)")
        }
        return rules
    }
}

extension PressureConfiguration.TemperatureRules {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case defaultHigh, defaultCritical, highBelowCritical, fairBelowHigh, criticalBelowCritical
        case hysteresis, cameraLabels, ignoredSensors, ignoredLabels, sensors
    }

    /// Decodes temperature rules; missing keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        func degrees(_ key: CodingKeys, _ fallback: Double, positive: Bool) throws -> Double {
            guard let value = try container.decodeIfPresent(Double.self, forKey: key) else {
                return fallback
            }
            guard value.isFinite, !positive || value >= 0 else {
                throw decoder.invalidValue(key, "expected a number of °C ≥ 0, got \(value)")
            }
            return value
        }
        defaultHigh = try degrees(.defaultHigh, defaultHigh, positive: false)
        defaultCritical = try degrees(.defaultCritical, defaultCritical, positive: false)
        guard defaultCritical > defaultHigh else {
            throw decoder.invalidValue(
                CodingKeys.defaultCritical,
                "expected more than defaultHigh (\(defaultHigh)), got \(defaultCritical)")
        }
        highBelowCritical = try degrees(.highBelowCritical, highBelowCritical, positive: true)
        fairBelowHigh = try degrees(.fairBelowHigh, fairBelowHigh, positive: true)
        criticalBelowCritical = try degrees(
            .criticalBelowCritical, criticalBelowCritical, positive: true)
        hysteresis = try degrees(.hysteresis, hysteresis, positive: true)
        cameraLabels =
            try container.decodeIfPresent([String].self, forKey: .cameraLabels) ?? cameraLabels
        ignoredSensors =
            try container.decodeIfPresent([SensorID].self, forKey: .ignoredSensors) ?? []
        ignoredLabels =
            try container.decodeIfPresent([String].self, forKey: .ignoredLabels) ?? ignoredLabels
        sensors =
            try container.decodeIfPresent(
                [String: PressureConfiguration.SensorLimits].self, forKey: .sensors) ?? [:]
    }
}

extension PressureConfiguration.SensorLimits {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case high, critical, hysteresis
    }

    /// Decodes per-sensor limits; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            high: try container.decodeIfPresent(Double.self, forKey: .high),
            critical: try container.decodeIfPresent(Double.self, forKey: .critical),
            hysteresis: try container.decodeIfPresent(Double.self, forKey: .hysteresis))
        if let high, let critical, critical <= high {
            throw decoder.invalidValue(
                CodingKeys.critical, "expected more than high (\(high)), got \(critical)")
        }
        if let hysteresis, hysteresis < 0 {
            throw decoder.invalidValue(
                CodingKeys.hysteresis, "expected a number ≥ 0, got \(hysteresis)")
        }
    }
}

extension PressureConfiguration.HeadroomRules {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case span, forecastSeconds, window, minimumSamples, spacing
    }

    /// The key earlier versions used for a fixed 0-point; refused with what replaced it.
    private enum RetiredKeys: String, CodingKey, CaseIterable {
        case baseline
    }

    /// Decodes headroom rules; missing keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        if try decoder.container(keyedBy: RetiredKeys.self).contains(.baseline) {
            throw decoder.invalidValue(
                RetiredKeys.baseline,
                "replaced by span: headroom is 0 span °C below the serious threshold and 1 at it (Android's meaning), default 30"
            )
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        func bounded(_ key: CodingKeys, _ fallback: Double, _ range: ClosedRange<Double>)
            throws -> Double
        {
            let value = try container.decodeIfPresent(Double.self, forKey: key) ?? fallback
            guard range.contains(value) else {
                throw decoder.invalidValue(
                    key, "expected \(range.lowerBound) to \(range.upperBound), got \(value)")
            }
            return value
        }
        span = try bounded(.span, span, 1...200)
        forecastSeconds = try bounded(.forecastSeconds, forecastSeconds, 0...60)
        window = try bounded(.window, window, 1...3600)
        spacing = try bounded(.spacing, spacing, 0...60)
        minimumSamples =
            try container.decodeIfPresent(Int.self, forKey: .minimumSamples) ?? minimumSamples
        guard minimumSamples >= 2 else {
            throw decoder.invalidValue(
                CodingKeys.minimumSamples, "expected an integer ≥ 2, got \(minimumSamples)")
        }
    }
}

extension PressureConfiguration.SamplingRules {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case slowInterval, reach
    }

    /// Decodes sampling rules; missing keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        let seconds =
            try container.decodeIfPresent(Double.self, forKey: .slowInterval)
            ?? slowInterval.seconds
        guard (0.01...10).contains(seconds) else {
            throw decoder.invalidValue(
                CodingKeys.slowInterval, "expected 0.01 to 10 seconds, got \(seconds)")
        }
        slowInterval = .seconds(seconds)
        reach = try container.decodeIfPresent(Double.self, forKey: .reach) ?? reach
        guard (0...1).contains(reach) else {
            throw decoder.invalidValue(
                CodingKeys.reach, "expected a headroom from 0 to 1, got \(reach)")
        }
    }
}
