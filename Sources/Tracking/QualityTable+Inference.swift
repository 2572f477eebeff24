import Units

extension QualityTable {
    /// The cheapest inference setting whose quality at `frameRate` (the nearest measured frame
    /// rate) is within `allowedLoss` (absolute, 0…1) of the best measured there; ties go to the
    /// better quality. `nil` when the table is empty.
    ///
    /// Quality is MOTA: on the synthetic scene it falls steadily as inference thins out, while
    /// IDF1 is dominated by identity swaps at crossings that stride barely changes.
    public func cheapestSetting(at frameRate: FrameRate, allowedLoss: Double) -> InferenceSetting? {
        let fps = frameRate.framesPerSecond
        guard
            let nearest = rows.min(by: {
                abs($0.frameRate.framesPerSecond - fps) < abs($1.frameRate.framesPerSecond - fps)
            })
        else { return nil }
        let candidates = rows.filter { $0.frameRate == nearest.frameRate }
        guard let best = candidates.map(\.mota).max() else { return nil }
        return candidates.filter { $0.mota >= best - allowedLoss }
            .min { ($0.setting.relativeCost, -$0.mota) < ($1.setting.relativeCost, -$1.mota) }?
            .setting
    }

    /// The lightest inference setting measured.
    public var lightestSetting: InferenceSetting? {
        rows.map(\.setting).min { $0.relativeCost < $1.relativeCost }
    }
}

extension QualityTable.Row {
    /// The row's stride and scale as an inference setting.
    public var setting: InferenceSetting { InferenceSetting(stride: stride, scale: scale) }
}
