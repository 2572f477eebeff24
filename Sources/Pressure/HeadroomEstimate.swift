/// Thermal headroom now and forecast, like Android's `getThermalHeadroom(forecastSeconds)`:
/// 0 at the baseline temperature, 1.0 when the serious threshold is reached.
public struct HeadroomEstimate: Hashable, Sendable, Codable {
    /// Headroom of the most constrained sensor now; NaN without thermal sensors.
    public var current: Double
    /// Headroom extrapolated ``forecastSeconds`` ahead from the recent trend; NaN until there
    /// are enough samples.
    public var forecast: Double
    /// How far ahead ``forecast`` looks, in seconds.
    public var forecastSeconds: Double

    /// An estimate of `current` and `forecast` headroom.
    public init(current: Double, forecast: Double, forecastSeconds: Double) {
        self.current = current
        self.forecast = forecast
        self.forecastSeconds = forecastSeconds
    }

    /// The larger known value of now and forecast (NaN when neither is known): what a
    /// cautious consumer plans with.
    public var planning: Double {
        switch (current.isNaN, forecast.isNaN) {
        case (true, true): .nan
        case (false, true): current
        case (true, false): forecast
        case (false, false): max(current, forecast)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case current, forecast, forecastSeconds
    }

    /// Decodes numbers, `null` standing for NaN.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        current = try container.decodeIfPresent(Double.self, forKey: .current) ?? .nan
        forecast = try container.decodeIfPresent(Double.self, forKey: .forecast) ?? .nan
        forecastSeconds = try container.decode(Double.self, forKey: .forecastSeconds)
    }

    /// Encodes numbers, NaN as `null` (JSON has no NaN).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(current.isNaN ? nil : current, forKey: .current)
        try container.encode(forecast.isNaN ? nil : forecast, forKey: .forecast)
        try container.encode(forecastSeconds, forKey: .forecastSeconds)
    }

    /// Equality treating NaN as equal to NaN.
    public static func == (lhs: HeadroomEstimate, rhs: HeadroomEstimate) -> Bool {
        func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
        return same(lhs.current, rhs.current) && same(lhs.forecast, rhs.forecast)
            && lhs.forecastSeconds == rhs.forecastSeconds
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(current.isNaN ? nil : current)
        hasher.combine(forecast.isNaN ? nil : forecast)
        hasher.combine(forecastSeconds)
    }
}
