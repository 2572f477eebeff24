import Files
import FoundationEssentials
import LaunchTiming
import Pipeline
import Pressure
import Units

/// The files a run leaves behind, written atomically into one directory:
/// `run.json` (the whole ``RunSummary``), `run.md` (a readable summary), `run.html` (one
/// self-contained page: launch waterfall, pressure and temperature with the governor's changes,
/// frame rate and stride, quality), `launch.trace.json` (the launch timeline for Perfetto /
/// chrome://tracing) and `launch.md`.
public enum RunReport {
    /// Writes the reports of `summary` into `directory`; returns the paths written.
    ///
    /// - Throws: ``ConfigurationError`` naming the file that could not be written, or
    ///   `run.json` should the summary not encode (a bug: non-finite numbers are spelled out):
    ///   nothing is written then, rather than an empty `run.json`.
    public static func write(_ summary: RunSummary, to directory: String) throws(ConfigurationError)
        -> [String]
    {
        let json: [UInt8]
        do {
            json = try JSONStyle.document.encode(summary)
        } catch {
            throw ConfigurationError(
                file: "\(directory)/run.json", path: "",
                problem: "the run's summary cannot be written as JSON: \(error)")
        }
        let files: [(String, [UInt8])] = [
            ("run.json", json),
            ("run.md", Array(markdown(summary).utf8)),
            ("run.html", Array(HTMLRunReport(data: htmlData(summary)).render().utf8)),
            (
                "launch.\(LaunchReportFormat.trace.fileExtension)",
                LaunchReportFormat.trace.render(summary.launch)
            ),
            ("launch.md", LaunchReportFormat.markdown.render(summary.launch)),
        ]
        var written: [String] = []
        for (name, data) in files {
            let path = "\(directory)/\(name)"
            try AtomicFile.write(data, to: path)
            written.append(path)
        }
        return written
    }

    /// The run summary as Markdown: results, the governor's changes, the notes.
    public static func markdown(_ summary: RunSummary) -> String {
        var text =
            "# Headroom run: \(summary.scenario), governor \(summary.governance.rawValue)\n\n"
        text += "| figure | value |\n|---|---:|\n"
        // Values carry names users chose (a video's path): escaped like a launch report's.
        for (name, value) in figures(summary) {
            text += "| \(name) | \(MarkdownReportExporter.escaped(value)) |\n"
        }
        text += "\n## Governor changes\n\n"
        if summary.governorChanges.isEmpty {
            text += "None.\n"
        } else {
            text += "| time (s) | level | from | to | why |\n|---:|---|---|---|---|\n"
            for change in summary.governorChanges {
                text +=
                    "| \(change.time.seconds.fixed(1)) | \(change.level) | \(change.from) | \(change.to) | \(change.reason) |\n"
            }
        }
        if let rungs = summary.rungs, !rungs.isEmpty {
            text += "\n## Time at each rung\n\n"
            text +=
                "| rung | seconds | frames | detector calls | calls a frame |\n|---|---:|---:|---:|---:|\n"
            for rung in rungs {
                text +=
                    "| \(rung.setting) | \(rung.time.seconds.fixed(1)) | \(rung.frames) | \(rung.detectorCalls) | \(rung.callsPerFrame.fixed(2)) |\n"
            }
        }
        if !summary.notes.isEmpty {
            text +=
                "\n## Notes\n\n"
                + summary.notes.map { "- \(MarkdownReportExporter.escaped($0))\n" }.joined()
        }
        return text
    }

    /// What the HTML report draws, from the summary.
    public static func htmlData(_ summary: RunSummary) -> RunReportData {
        let processStart =
            summary.launch.phase(named: LaunchPhase.processStart.name)?.start ?? .zero
        return RunReportData(
            title:
                "headroom run — \(summary.scenario), governor \(summary.governance.rawValue)",
            context: [
                "profile \(summary.profile), seed \(summary.seed), \(summary.duration.seconds.fixed(0)) s",
                summary.isSimulated
                    ? "temperatures SIMULATED by the thermal model" : "temperatures measured",
            ] + summary.notes,
            launchPhases: summary.launch.phases.filter(\.isComplete).map {
                LaunchPhaseSpan(
                    name: $0.name, startSeconds: max(.zero, $0.start - processStart).seconds,
                    durationSeconds: $0.duration.seconds, depth: $0.depth)
            },
            pressure: summary.samples.map {
                PressurePoint(
                    timeSeconds: $0.time.seconds, level: $0.level.rawValue,
                    temperatureCelsius: $0.temperature)
            },
            governorChanges: summary.governorChanges.map {
                GovernorChangeMark(timeSeconds: $0.time.seconds, summary: "\($0.level): \($0.to)")
            },
            pipeline: summary.samples.map {
                PipelinePoint(
                    timeSeconds: $0.time.seconds,
                    targetFrameRate: $0.isCapturing ? $0.targetFrameRate.framesPerSecond : 0,
                    actualFrameRate: $0.actualFrameRate.framesPerSecond, inferenceStride: $0.stride)
            },
            quality: figures(summary).map { name, value in
                QualityFigure(
                    name: name, value: value,
                    isConcern: (name == "worst level" && summary.worstLevel >= .critical)
                        || (name == "frames dropped"
                            && summary.framesDropped > summary.framesProcessed / 10)
                )
            }, stills: summary.annotation?.stills ?? [])
    }

    /// The headline figures, in order, as (name, text).
    public static func figures(_ summary: RunSummary) -> [(String, String)] {
        var figures: [(String, String)] = [
            (
                "seconds",
                summary.duration.seconds.fixed(summary.wasInterrupted ? 1 : 0)
                    + (summary.wasInterrupted ? " (interrupted)" : "")
            ),
            (
                "peak temperature",
                summary.peakTemperature.map {
                    "\($0.fixed(1)) °C\(summary.isSimulated ? " (simulated)" : "")"
                } ?? "no sensors"
            ),
            ("worst level", summary.worstLevel.name),
            ("time at serious or worse", "\(summary.timeAtSeriousOrWorse.seconds.fixed(1)) s"),
            ("frames processed", String(summary.framesProcessed)),
            ("frames dropped", String(summary.framesDropped)),
            ("detector calls", String(summary.detectorCalls)),
        ]
        if let calls = summary.networkCalls {
            let perFrame = Double(calls) / Double(max(1, summary.framesProcessed))
            figures.append(("network calls", "\(calls) (\(perFrame.fixed(2)) a frame)"))
        }
        figures += [
            ("source", "\(summary.source), \(summary.detector.rawValue) detector")
        ]
        if let quality = summary.quality {
            let whole = "over \(quality.duration.seconds.fixed(0)) s"
            figures += [
                ("IDF1", "\(quality.idf1.fixed(3)) \(whole)"),
                (
                    "IDF1, last \(TrackingQuality.recentWindow.seconds.fixed(0)) s",
                    "\(quality.recentIDF1.fixed(3)) over \(quality.recentDuration.seconds.fixed(0)) s"
                ),
                (
                    "HOTA (DetA, AssA)",
                    "\(quality.hota.fixed(3)) (\(quality.detA.fixed(3)), \(quality.assA.fixed(3))) \(whole)"
                ),
                ("MOTA", "\(quality.mota.fixed(3)) \(whole)"),
                ("identity switches", "\(quality.identitySwitches) \(whole)"),
                // Measured against where the subject truly is: ground truth only.
                ("mean framing error", summary.meanFramingError.fixed(3)),
            ]
        } else {
            figures.append(("tracking quality", "no ground truth"))
        }
        figures += [
            ("track identities", String(summary.trackCount)),
            ("new identities per minute", summary.tracksStartedPerMinute.fixed(1)),
            ("governor changes", String(summary.governorChangeCount)),
            ("hardware cost", summary.hardwareCost.fixed(2)),
        ]
        if let annotation = summary.annotation {
            figures.append(
                (
                    "annotated video",
                    annotation.problem.map { "not written: \($0)" }
                        ?? "\(annotation.path), \(annotation.frames) frames"
                        + (annotation.framesDropped > 0
                            ? ", \(annotation.framesDropped) dropped" : "")
                ))
        }
        if let recording = summary.recording {
            figures += [
                (
                    "recording",
                    "\(recording.frames) frames, \(recording.bytes)"
                        + (recording.usesProVideoStorage ? " via the reserve" : "")
                        + (recording.usesProVideoStorage && recording.uncached == false
                            ? ", through the page cache (the filesystem refuses O_DIRECT)" : "")
                ),
                ("recording frames dropped", String(recording.framesDropped)),
                ("recording ended", recording.endReason.rawValue),
            ]
        }
        return figures
    }
}
