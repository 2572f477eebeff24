/// The power factors of a board's signals and how close they are to their limits.
extension BoardSignals {
    /// The `powerSupply` factor: under-voltage now (the firmware word or an alarm) is
    /// `serious`; "has occurred since boot" is reported at `nominal`, never escalated. `nil`
    /// on a board without a supply signal.
    public var supplyFactor: PressureFactor? {
        guard hasSupplySignal else { return nil }
        let alarms = voltages.filter { $0.underVoltageAlarm == true }
        let word = firmware?.hex ?? ""
        let firmwareNow = firmware?.isActive(.underVoltage) == true
        let level: PressureLevel
        let detail: String
        if firmwareNow || !alarms.isEmpty {
            level = .serious
            let sources =
                (firmwareNow ? ["firmware \(word)"] : []) + alarms.map { "\($0.id) alarm" }
            detail = "under-voltage now (\(sources.joined(separator: ", ")))"
        } else if firmware?.hasOccurred(.underVoltage) == true {
            level = .nominal
            detail = "under-voltage has occurred since boot (firmware \(word)), not now"
        } else if let firmwareFault, voltages.allSatisfy({ $0.underVoltageAlarm == nil }) {
            level = .nominal
            detail = "supply state unknown: firmware word \(firmwareFault)"
        } else {
            level = .nominal
            detail = "supply voltage normal"
        }
        return PressureFactor(
            kind: .powerSupply, level: level, value: level > .nominal ? 1 : 0, unit: "flag",
            detail: detail)
    }

    /// The `peakPower` factor: a rail over its critical limit (or raising the critical alarm)
    /// is `critical`, over its warning limit `serious`; the factor names that rail, or the
    /// rail drawing the most power when all are within limits. `nil` without readable rails.
    public var peakPowerFactor: PressureFactor? {
        let readable = rails.filter { $0.fault == nil }
        let critical = readable.first(where: \.isOverCritical)
        let warning = readable.first(where: \.isOverWarning)
        guard
            let deciding = critical ?? warning
                ?? readable.max(by: { ($0.watts ?? 0) < ($1.watts ?? 0) })
        else { return nil }
        let level: PressureLevel =
            critical != nil ? .critical : (warning != nil ? .serious : .nominal)
        let watts = deciding.watts.map { "\(($0 * 100).rounded() / 100) W" } ?? "power unknown"
        let why: String =
            switch level {
            case .critical:
                deciding.criticalAlarm == true
                    ? "critical current alarm" : "at its critical current limit"
            case .serious: "over its warning limit"
            default: "within limits"
            }
        return PressureFactor(
            kind: .peakPower, level: level, value: deciding.watts ?? 0, unit: "watts",
            sensor: deciding.id, detail: "\(deciding.label) at \(watts): \(why)")
    }

    /// Whether a limit is within `reach` (a share, 0.7 by default): a firmware condition
    /// now, an alarm, or a rail at `reach` of its warning current or power.
    func isWithinReach(_ reach: Double) -> Bool {
        if firmware?.active.isEmpty == false { return true }
        if voltages.contains(where: { $0.underVoltageAlarm == true }) { return true }
        return rails.contains { rail in
            if rail.warningAlarm == true || rail.criticalAlarm == true { return true }
            if let amperes = rail.amperes, let limit = rail.warningAmperes,
                amperes >= reach * limit
            {
                return true
            }
            if let watts = rail.watts, let limit = rail.warningWatts {
                return watts >= reach * limit
            }
            return false
        }
    }
}
