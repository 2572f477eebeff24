import Tracking
import Units

/// Measures a ``QualityTable``: runs the synthetic scene through renderer, detector, tracker,
/// subject selection, framing and a camera rig for each setting, and scores the tracks against
/// the scene's ground truth. Seeded: the same settings give the same table on every machine.
public struct QualityTableGenerator: Sendable {
    /// The scene.
    public var scene: SyntheticScene.Configuration
    /// How long the scene runs per setting, > 0.
    public var duration: Duration
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// The tracker settings.
    public var tracker: TrackerConfiguration
    /// Ground-truth people less visible than this (0...1) are not expected to be tracked.
    public var minimumVisibility: Double = 0.3
    /// Scene seeds; every setting runs once per seed and the row is the mean (IDSW the sum),
    /// which evens out one scene's luck. The scene configuration's own seed is ignored.
    public var seeds: [UInt64] = [1, 2, 3]

    /// Creates a generator; the defaults are a 20 s scene of six people at 320 × 180.
    public init(
        scene: SyntheticScene.Configuration = SyntheticScene.Configuration(),
        duration: Duration = .seconds(20), width: Int = 320, height: Int = 180,
        tracker: TrackerConfiguration = TrackerConfiguration()
    ) {
        self.scene = scene
        self.duration = duration
        self.width = width
        self.height = height
        self.tracker = tracker
    }

    /// The grid: strides 1, 2, 3, 5 at 30, 20 and 15 fps, at each scale.
    ///
    /// - Parameters:
    ///   - rig: the camera rig to start every run from (a copy is driven per run).
    ///   - scales: detector scales to measure.
    /// - Throws: ``TrackerConfigurationError`` when the tracker settings are invalid.
    public func generate<Rig: CameraRig>(
        rig: Rig, frameRates: [FrameRate] = [30, 20, 15], strides: [Int] = [1, 2, 3, 5],
        scales: [Double] = [0.5]
    ) throws(TrackerConfigurationError) -> QualityTable {
        var rows: [QualityTable.Row] = []
        for frameRate in frameRates {
            for stride in strides {
                for scale in scales {
                    rows.append(
                        try measure(rig: rig, frameRate: frameRate, stride: stride, scale: scale))
                }
            }
        }
        return QualityTable(rows: rows, runDuration: duration, seeds: seeds)
    }

    /// Measures one setting.
    ///
    /// - Throws: ``TrackerConfigurationError`` when the tracker settings are invalid.
    public func measure<Rig: CameraRig>(
        rig: Rig, frameRate: FrameRate, stride: Int, scale: Double
    ) throws(TrackerConfigurationError) -> QualityTable.Row {
        var idf1 = 0.0
        var mota = 0.0
        var idsw = 0
        var framingError = 0.0
        var framed = 0.0
        let seeds = seeds.isEmpty ? [scene.seed] : seeds
        for seed in seeds {
            var configuration = scene
            configuration.seed = seed
            var sceneRun = try SceneRun(
                scene: configuration, rig: rig, width: width, height: height, tracker: tracker,
                scale: scale, stride: stride, frameRate: frameRate,
                minimumVisibility: minimumVisibility)
            let run = sceneRun.run(duration: duration)
            let metrics = MOTEvaluator().evaluate(
                groundTruth: run.groundTruth, hypotheses: run.hypotheses)
            idf1 += metrics.idf1
            mota += metrics.mota
            idsw += metrics.idsw
            framingError += run.meanFramingError
            framed += run.framedFraction.fraction
        }
        let count = Double(seeds.count)
        return QualityTable.Row(
            frameRate: frameRate, stride: max(1, stride), scale: scale,
            idf1: idf1 / count, mota: mota / count, idsw: idsw,
            framingError: framingError / count, framedFraction: Share(fraction: framed / count))
    }
}
