import CLI
import Capture
import Daemon
import Files
import FoundationEssentials
import Locking
import Pipeline
import Reports
import Storage
import Tracking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom calibrate`: measures this host's pixel rate and writes the `host` profile.
enum CalibrateCommand {
    static let command = Command(
        name: "calibrate",
        summary: "Measure this host's sustainable pixel rate and write it as the \"host\" profile.",
        details: """
            Runs the synthetic camera, the detector (--detector: the one `run` will use) and the
            tracker at several resolutions and frame rates (smaller ones on a host too slow for
            them), fits the hardware-cost model to the CPU time they use, and writes the
            profile to $XDG_CONFIG_HOME/headroom/profiles/host.json (default ~/.config), where
            --profile host finds it. It also measures the pro video storage reserve's sustained
            write rate into the profile's storageWriteRate: writes as a recording into the
            reserve makes them (past the page cache) for --storage-seconds (at most 16 GiB),
            timed to the disk, the slowest second once half the bytes are written (the disk's
            caches full by then); --storage-competitor RATE sets another writer beside it, as
            the recorder's neighbours on the disk write. The estimator prices movie outputs against 80 % of it.
            Held-out configurations check the estimator's predicted
            cost against measured utilization (CPU seconds per second over cores). --json
            prints {"profile", "fit", "fitMeasurements", "heldOutMeasurements", "validation":
            {"rows", "meanAbsoluteError", "meanRelativeError"}, "date", "cores",
            "resolutionScale", "frameRateScale", "detector"}. HOG is measured at the sizes it
            runs at on video (its work per pixel grows with the frame), at a few frames a second.
            The neural detector (person-ssd) resizes every frame to its network's input, so its
            work is per frame: the fit prices its frames apart from its pixels (the profile's
            videoDataFrameShare). Last, it prices each rung of the detector's inference ladder
            (the scene at 960×540 through the detector and tracker at that rung, CPU time a
            frame, every thread's) into the profile's rungCosts: a run on this profile sheds by
            what each rung costs here, not by what the ladder assumes.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            guard
                let path = arguments[\.out]?.path
                    ?? ProfileCatalog.forThisUser.calibratedPath(
                        for: ProfileCatalog.hostProfileName)
            else {
                throw UsageError(
                    description:
                        "--out: expected a file, since neither XDG_CONFIG_HOME nor HOME is set")
            }
            // The calibrated directory's path is checked before calibration measures for half a
            // minute, as a given --out was when parsed.
            if arguments[\.out] == nil {
                _ = try Arguments.destination(path, as: .file, for: "--out")
            }
            let detector = arguments[\.detector]
            let calibration = HostCalibration(
                seconds: arguments[\.seconds], detector: detector,
                personModel: detector == .personSSD ? try PersonModelInput.installed() : nil)
            let display = CalibrationDisplay(isLive: isatty(STDERR_FILENO) == 1)
            var report = try await withSignalCancellation {
                try await calibration.run { display.show($0) }
            }
            display.finish()
            let storage = arguments[\.storage] ?? StorageCommand.defaultDirectory
            do {
                let measurement = try WriteRateProbe.measure(
                    in: StorageCommand.open(storage), seconds: arguments[\.storageSeconds],
                    competitor: arguments[\.storageCompetitor], clock: ContinuousRunClock())
                report.profile.storageWriteRate = measurement.rate
                report.profile.sources["storageWriteRate"] =
                    "measured by headroom calibrate: " + measurement.summary(reserve: storage)
            } catch {
                Console.error(
                    "headroom calibrate: the storage write rate was not measured: \(error)")
            }
            try AtomicFile.write(Console.jsonData(report.profile), to: path)
            if arguments[\.json] {
                Console.json(report)
            } else {
                Console.out(CalibrationText(report: report, path: path).text)
            }
            return 0
        })

    /// `headroom calibrate`'s options.
    struct Options: CommandOptions {
        let seconds = Option<Double>.number(
            "--seconds", "S", "total measuring time (20 s takes about 25 s)", in: 1...600,
            default: 20)
        let out = Option<Destination?>.output(
            "--out", "FILE", "write the profile here instead of the calibrated directory")
        /// The reserve whose write rate is measured.
        let storage = StorageCommand.storageOption
        let storageSeconds = Option<Double>.number(
            "--storage-seconds", "S", "how long the reserve's write rate is measured",
            in: 0.5...600,
            default: 10)
        let storageCompetitor = StorageCommand.competitorOption(
            "--storage-competitor", "measure the reserve's write rate with another writer beside it"
        )
        let detector = Option<DetectorKind>.choice(
            "--detector",
            "the detector to measure: the one `run` will use (blob for the scene, hog for"
                + " real video)", default: .blob)
        let json = Option<Bool>.flag("--json", "print the calibration report as JSON")
    }
}

/// Progress on stderr: a bar redrawn in place on a terminal, a line per configuration
/// otherwise.
final class CalibrationDisplay: Sendable {
    private let isLive: Bool
    private let drawn = LockedState(false)

    init(isLive: Bool) {
        self.isLive = isLive
    }

    func show(_ progress: CalibrationProgress) {
        let role = progress.isHeldOut ? "held out" : "fit"
        let position = "[\(progress.index + 1)/\(progress.count)] \(progress.point) (\(role))"
        if isLive {
            drawn.withLock { $0 = true }
            Console.errorRedraw(
                "\(RunDisplay.bar(progress.fraction)) \(Int(progress.fraction * 100))% \(position)")
        } else if let measurement = progress.measurement {
            Console.error(
                "calibrate: \(position): utilization \(measurement.utilization.fixed(3)),"
                    + " \(measurement.deliveredFrameRate.framesPerSecond.fixed(1)) fps,"
                    + " \(measurement.droppedFrames) dropped")
        }
    }

    func finish() {
        if drawn.withLock({ $0 }) { Console.errorWrite("\r\u{1B}[K") }
    }
}

/// The human form of a calibration: the profile's figures, the fit's and the held-out
/// configurations' tables, the mean absolute error.
struct CalibrationText {
    var report: CalibrationReport
    var path: String

    var text: String {
        let fit = report.fit
        var lines = [
            "calibrated \"\(report.profile.name)\" on \(report.cores) CPUs with the \(report.detector.rawValue) detector:"
                + " pixel rate \((fit.pixelRate / 1e6).fixed(1)) Mpx/s,"
                + " videoData weight \(fit.videoDataWeight.fixed(2)),"
                + " per-camera overhead \(fit.perCameraOverhead.fixed(3))",
            "  per pixel: drawing \((fit.readoutSecondsPerPixel * 1e9).fixed(2)) ns,"
                + " detector and tracker \((fit.consumerSecondsPerPixel * 1e9).fixed(2)) ns"
                + " (thread CPU time)",
        ]
        if let share = fit.videoDataFrameShare {
            lines.append(
                "  per frame: \((share * 100).fixed(2)) % of the budget for each frame a second"
                    + " (\((share * Double(report.cores) * 1000).fixed(1)) ms of CPU a frame:"
                    + " the detector's fixed input)")
        }
        if let rungs = report.profile.rungCosts, let top = rungs.first {
            let size = HostCalibration.rungPricingSize
            lines.append(
                "  ladder (CPU a frame at \(size.width)×\(size.height), every thread's; the"
                    + " governor sheds by it):")
            for rung in rungs {
                lines.append(
                    "    \(rung.setting): \(rung.cpuMillisecondsPerFrame.fixed(2)) ms"
                        + " (\((rung.cpuMillisecondsPerFrame / top.cpuMillisecondsPerFrame).fixed(2))×)"
                )
            }
        }
        lines += [
            "  storage: "
                + (report.profile.storageWriteRate.map {
                    "\($0) sustained (\(report.profile.sources["storageWriteRate"] ?? ""))"
                } ?? "write rate not measured"),
            "wrote \(path) (use it with --profile \(profileReference))",
        ]
        for (scale, what) in [
            (report.resolutionScale, "width and height"), (report.frameRateScale, "frame rates"),
        ] where scale < 1 {
            lines.append(
                "note: this host is slow for the default configurations: their \(what) were"
                    + " scaled by \(scale.fixed(2))")
        }
        lines += [
            "",
            "fitted configurations:",
        ]
        var fitted = TextTable(
            headings: ["configuration", "fps", "dropped", "utilization", "model", ""],
            numericColumns: [1, 2, 3, 4])
        let estimator = HardwareCostEstimator(profile: report.profile)
        for measurement in report.fitMeasurements {
            let model = estimator.hardwareCost(
                of: measurement.point.session(
                    profile: report.profile.name,
                    frameRate: measurement.deliveredFrameRate))
            fitted.rows.append([
                measurement.point.description,
                measurement.deliveredFrameRate.framesPerSecond.fixed(1),
                String(measurement.droppedFrames), measurement.utilization.fixed(3),
                measurement.frames > 0 ? model.fraction.fixed(3) : "-",
                measurement.keptUp ? "" : "fell behind: not fitted",
            ])
        }
        lines.append(fitted.text)
        lines += [
            "", "held-out configurations: estimator's hardware cost vs measured utilization:",
        ]
        var heldOut = TextTable(
            headings: ["configuration", "fps", "dropped", "measured", "predicted", "error"],
            numericColumns: [1, 2, 3, 4, 5])
        for row in report.validation.rows {
            heldOut.rows.append([
                row.point.description, row.deliveredFrameRate.framesPerSecond.fixed(1),
                String(row.droppedFrames), row.measuredUtilization.fixed(3),
                row.predictedCost.fixed(3),
                signed(row.error) + (row.keptUp ? "" : " (fell behind: not scored)"),
            ])
        }
        lines.append(heldOut.text)
        if let mae = report.validation.meanAbsoluteError {
            let relative = report.validation.meanRelativeError.map {
                ", mean relative error \(($0 * 100).fixed(1)) %"
            }
            lines.append(
                "mean absolute error \(mae.fixed(4)) (\((mae * 100).fixed(2)) points of the"
                    + " CPU budget)\(relative ?? "") over \(report.validation.scoredRows.count)"
                    + " held-out configurations")
        } else {
            lines.append("no held-out configuration kept up with its frame rate: no error figure")
        }
        return lines.joined(separator: "\n")
    }

    private var profileReference: String {
        path == ProfileCatalog.forThisUser.calibratedPath(for: report.profile.name)
            ? report.profile.name : path
    }

    private func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + value.fixed(3)
    }
}
