import Files
import Storage
import Units

/// Prices capture sessions on a device profile; the model is described in the module
/// documentation (`Capture.docc`).
public struct HardwareCostEstimator: Sendable {
    /// The machine sessions are priced for.
    public var profile: DeviceProfile

    /// An estimator for `profile`.
    public init(profile: DeviceProfile) {
        self.profile = profile
    }

    /// The cost of running `configuration`, with its breakdown. The configuration is assumed
    /// valid (see ``SessionConfiguration/validate()``); outputs naming no known camera are ignored.
    public func cost(of configuration: SessionConfiguration) -> HardwareCostEstimate {
        var cameraCosts: [CameraCost] = []
        cameraCosts.reserveCapacity(configuration.cameras.count)
        var total = CameraLoad()
        let counts = outputCounts(in: configuration)
        for (camera, outputs) in zip(configuration.cameras, counts) {
            let load = load(of: camera, outputs: outputs)
            total.add(load)
            cameraCosts.append(
                CameraCost(
                    id: camera.id, cost: 0, pixelRateShare: load.pixelShare,
                    memoryBandwidthShare: load.memoryShare, storageWriteShare: load.storageShare,
                    factors: CameraCostFactors(
                        pixelsPerFrame: camera.format.pixelCount, frameRate: camera.frameRate,
                        readoutFactor: load.readoutFactor, outputLoad: load.outputLoad,
                        outputs: load.outputs)))
        }
        let cameraCount = Double(configuration.cameras.count)
        let ports = Double(profile.cameraPorts)
        let (hardwareCost, limiting) = combine(total, cameraCount: cameraCount)
        for index in cameraCosts.indices {
            cameraCosts[index].cost =
                switch limiting {
                case .pixelRate: cameraCosts[index].pixelRateShare
                case .memoryBandwidth: cameraCosts[index].memoryBandwidthShare
                case .cameraPorts: Share(fraction: 1 / ports)
                case .storageWriteRate: cameraCosts[index].storageWriteShare
                }
        }
        var budgets = [
            BudgetUse(
                budget: .pixelRate, demand: total.pixelDemand, capacity: profile.pixelRate,
                share: total.pixelShare),
            BudgetUse(
                budget: .memoryBandwidth, demand: total.memoryDemand,
                capacity: profile.memoryBandwidth, share: total.memoryShare),
            BudgetUse(
                budget: .cameraPorts, demand: cameraCount, capacity: ports,
                share: Share(fraction: cameraCount / ports)),
        ]
        if let rate = profile.recordingWriteBudget {
            budgets.append(
                BudgetUse(
                    budget: .storageWriteRate, demand: total.storageDemand,
                    capacity: rate.bytesPerSecond, share: total.storageShare))
        }
        return HardwareCostEstimate(
            profile: profile.name, hardwareCost: hardwareCost, fits: hardwareCost <= 1,
            limitingBudget: limiting, budgets: budgets, cameras: cameraCosts)
    }

    /// The hardware cost alone, without building the breakdown: what planners call in loops.
    public func hardwareCost(of configuration: SessionConfiguration) -> Share {
        hardwareCost(of: configuration, outputCounts: outputCounts(in: configuration))
    }

    /// The hardware cost with each camera's outputs already counted (``outputCounts(in:)``,
    /// in camera order): O(cameras), so a planner trading formats and frame rates of a session
    /// with a thousand outputs does not recount them for every trial. Allocates nothing.
    func hardwareCost(of configuration: SessionConfiguration, outputCounts: [OutputCounts])
        -> Share
    {
        var total = CameraLoad()
        for (camera, outputs) in zip(configuration.cameras, outputCounts) {
            total.add(load(of: camera, outputs: outputs))
        }
        return combine(total, cameraCount: Double(configuration.cameras.count)).cost
    }

    /// How many outputs of each kind feed each camera, in camera order, in one pass over the
    /// outputs: an output naming no camera feeds the first, one naming an unknown camera none.
    func outputCounts(in configuration: SessionConfiguration) -> [OutputCounts] {
        var counts = Array(repeating: OutputCounts(), count: configuration.cameras.count)
        guard !counts.isEmpty else { return counts }
        for output in configuration.outputs {
            guard let id = output.camera else {
                counts[0][output.kind] += 1
                continue
            }
            if let index = configuration.cameras.firstIndex(where: { $0.id == id }) {
                counts[index][output.kind] += 1
            }
        }
        return counts
    }

    /// The session's cost from its summed loads: the larger continuous share, unless the
    /// cameras outnumber the ports. Ports are a hard limit rather than a load, so within the
    /// limit the cost keeps rising with every pixel.
    private func combine(_ total: CameraLoad, cameraCount: Double) -> (
        cost: Share, limiting: Budget
    ) {
        let portShare = Share(fraction: cameraCount / Double(profile.cameraPorts))
        var load =
            total.pixelShare >= total.memoryShare
            ? (total.pixelShare, Budget.pixelRate) : (total.memoryShare, Budget.memoryBandwidth)
        if total.storageShare > load.0 { load = (total.storageShare, .storageWriteRate) }
        return portShare > 1 && portShare > load.0 ? (portShare, .cameraPorts) : load
    }

    /// One camera's share of the budget it strains most, counting the outputs attached to it in
    /// `configuration`: how the planner ranks a camera's options.
    func dominantShare(of camera: CameraConfiguration, outputs: OutputCounts) -> Share {
        let load = load(of: camera, outputs: outputs)
        return max(load.pixelShare, load.memoryShare, load.storageShare)
    }

    /// One camera's demand on the continuous budgets and its shares of them.
    @inline(__always)
    private func load(of camera: CameraConfiguration, outputs: OutputCounts) -> CameraLoad {
        var outputLoad = 0.0
        for kind in OutputKind.allCases where outputs[kind] > 0 {
            outputLoad += Double(outputs[kind]) * profile.outputWeights[kind]
        }
        let format = camera.format
        let readoutFactor = readoutFactor(of: format)
        let pixelsPerSecond = format.pixelsPerSecond(at: camera.frameRate)
        // Raw pixels through the ISP, then each output's extra passes.
        let pixelDemand = pixelsPerSecond * (readoutFactor + outputLoad)
        // Raw frames written to memory, processed frames written once and read by every output.
        let memoryDemand =
            pixelsPerSecond
            * (readoutFactor * profile.rawBytesPerPixel
                + format.pixelFormat.bytesPerPixel * (1 + outputLoad))
        // Every movie output writes the frames as Y4M; priced only against a measured rate.
        let storageDemand =
            outputs.movie > 0
            ? Double(outputs.movie) * MovieFormat(camera: camera).dataRate.bytesPerSecond : 0
        // A consumer whose input is fixed costs per frame, whatever the frame's pixels.
        let frameShare =
            Double(outputs.videoData) * camera.frameRate.framesPerSecond
            * (profile.videoDataFrameShare ?? 0)
        return CameraLoad(
            pixelDemand: pixelDemand, memoryDemand: memoryDemand, storageDemand: storageDemand,
            pixelShare: Share(
                fraction: pixelDemand / profile.pixelRate + profile.perCameraOverhead
                    + frameShare),
            memoryShare: Share(fraction: memoryDemand / profile.memoryBandwidth),
            storageShare: Share(
                fraction: profile.recordingWriteBudget.map { storageDemand / $0.bytesPerSecond }
                    ?? 0),
            readoutFactor: readoutFactor, outputLoad: outputLoad, outputs: outputs)
    }

    /// Raw readout relative to output size: binning reads fewer photosites, a full-sensor mode
    /// reads more than it delivers and scales down, a crop reads exactly what it delivers.
    public func readoutFactor(of format: CameraFormat) -> Double {
        (format.isBinned ? profile.binnedReadoutFactor : 1)
            * (format.isCropped ? 1 : profile.fullSensorReadoutFactor)
    }
}

/// Demand and budget shares of one camera, or of several summed.
private struct CameraLoad {
    var pixelDemand = 0.0
    var memoryDemand = 0.0
    var storageDemand = 0.0
    var pixelShare = Share.zero
    var memoryShare = Share.zero
    var storageShare = Share.zero
    var readoutFactor = 0.0
    var outputLoad = 0.0
    var outputs = OutputCounts()

    mutating func add(_ other: CameraLoad) {
        pixelDemand += other.pixelDemand
        memoryDemand += other.memoryDemand
        storageDemand += other.storageDemand
        pixelShare += other.pixelShare
        memoryShare += other.memoryShare
        storageShare += other.storageShare
    }
}
