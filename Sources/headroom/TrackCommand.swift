import CLI
import Capture
import Files
import LaunchTiming
import Tracking
import Units

/// `headroom track DETECTIONS.txt`: runs the multi-object tracker on MOTChallenge detections.
enum TrackCommand {
    static let command = Command(
        name: "track",
        forms: [UsageForm("DETECTIONS.txt")],
        summary: "Track MOTChallenge detections; with --gt, score the tracks (HOTA, MOTA, ...).",
        details: """
            DETECTIONS.txt has one box per line: frame,id,left,top,width,height,conf,... in
            pixels (MOTChallenge). With --image-size WxH the boxes are read as normalized 0...1
            coordinates and scaled to that image. --stride N feeds detections only on every
            N-th frame; the frames between are prediction-only, as under the governor.
            --detector KIND tracks with the settings `headroom run --detector KIND` uses (for
            the detections.txt a run writes); by default ByteTrack's. Where KIND's boxes carry
            looks (person-ssd, blob), --source VIDEO takes them from the frames of the video
            they were found in (run's --source), as run does, so that a run's tracks are
            reproduced. --out
            writes the confirmed tracks per frame (atomically) in the same format. --json prints
            {"frames", "tracks", "trackBoxes", "framesPerSecond"} (tracking only, without file
            I/O) and, with --gt, the scores of `headroom evaluate` ("hota", "detA", "assA",
            "detRe", "detPr", "assRe", "assPr", "locA", "hota0", "locA0", "mota", "motp", "idf1",
            "idp", "idr", "idsw", "fp", "fn", "mt", "ml", "groundTruthBoxes", "objects"). MOTP
            is the mean IoU of matched pairs (higher is better).
            """,
        options: Options.self,
        run: { arguments in
            let path = try arguments.single("DETECTIONS.txt")
            let out = arguments[\.out]
            let stride = arguments[\.stride]
            let scale = try imageSize(arguments[\.imageSize])
            var records = try MOTInput.read(path)
            if let scale {
                records = records.map { record in
                    var copy = record
                    copy.box = BoundingBox(
                        minX: record.box.minX * scale.width, minY: record.box.minY * scale.height,
                        width: record.box.width * scale.width,
                        height: record.box.height * scale.height)
                    return copy
                }
            }
            let truth = try arguments[\.gt].map { path throws(UsageError) in
                try MOTInput.readIdentities(path)
            }
            let lastFrame = max(records.map(\.frame).max() ?? 0, truth?.map(\.frame).max() ?? 0)
            var byFrame = [[Detection]](repeating: [], count: lastFrame + 1)
            for record in records {
                byFrame[record.frame].append(
                    Detection(box: record.box, confidence: record.confidence))
            }
            if let video = arguments[\.source] {
                guard let style = arguments[\.detector]?.appearanceStyle else {
                    throw UsageError(
                        description:
                            "--source: expected --detector person-ssd or blob (the detectors whose boxes carry looks)"
                    )
                }
                try await VideoLooks.attach(
                    to: &byFrame, video: video, style: style, boxesSizedFor: scale)
            }
            var tracker = try MultiObjectTracker(
                configuration: arguments[\.detector]?.trackerConfiguration ?? TrackerConfiguration()
            )
            var tracks: [MOTRecord] = []
            // About one box per detection: reserved before the clock starts, so the timing is
            // the tracker's, not the growth of this list.
            tracks.reserveCapacity(records.count + records.count / 4)
            let start = MonotonicClock.now()
            if lastFrame >= 1 {
                for frame in 1...lastFrame {
                    let objects =
                        (frame - 1) % stride == 0
                        ? tracker.update(with: byFrame[frame]) : tracker.predict()
                    for object in objects {
                        tracks.append(
                            MOTRecord(
                                frame: frame, id: object.id.rawValue, box: object.box,
                                confidence: object.confidence))
                    }
                }
            }
            let seconds = Double(MonotonicClock.now().nanoseconds - start.nanoseconds) / 1e9
            let framesPerSecond = seconds > 0 ? Double(lastFrame) / seconds : 0
            if let out {
                try AtomicFile.write(MOTFile.format(tracks), to: out.path)
            }
            let identities = Set(tracks.map(\.id)).count
            let scores = truth.map { MOTInput.Scores(truth: $0, tracks: tracks) }
            if arguments[\.json] {
                var fields: [String: Double] = [
                    "frames": Double(lastFrame), "tracks": Double(identities),
                    "trackBoxes": Double(tracks.count), "framesPerSecond": framesPerSecond,
                ]
                if let scores { fields.merge(MOTInput.jsonFields(scores)) { $1 } }
                Console.json(fields)
            } else {
                var text =
                    "Tracked \(lastFrame) frames: \(identities) tracks, \(tracks.count) boxes, "
                    + "\(Int(framesPerSecond.rounded())) frames/s (tracking only)."
                if let out { text += "\nTracks written to \(out.path)." }
                if let scores { text += "\n\n" + MOTInput.text(scores) }
                Console.out(text)
            }
            return 0
        })

    /// `headroom track`'s options.
    struct Options: CommandOptions {
        let out = Option<Destination?>.output(
            "--out", "TRACKS.txt", "write the tracks in MOTChallenge format")
        let gt = Option<String?>.path("--gt", "GT.txt", "ground truth to score the tracks against")
        let stride = Option<Int>.integer(
            "--stride", "N", "use detections only on every N-th frame", in: 1...1000, default: 1)
        let imageSize = Option<String?>.text(
            "--image-size", "WxH", "read boxes as normalized coordinates of this image")
        let detector = Option<DetectorKind?>.choice(
            "--detector", "track with the settings run uses for this detector's boxes")
        let source = Option<String?>.path(
            "--source", "VIDEO", "the video the detections were found in, for their looks")
        let json = Option<Bool>.flag("--json", "print the results as JSON")
    }

    /// Parses `WxH` into positive numbers.
    /// `WIDTHxHEIGHT` given for `option`, each side from 1 to 16384 pixels (a frame of the
    /// largest camera; `scene` and `quality` render frames this size).
    static func imageSize(_ text: String?, option: String = "--image-size") throws(UsageError)
        -> (width: Double, height: Double)?
    {
        guard let text else { return nil }
        let parts = text.lowercased().split(separator: "x").map { Int($0) }
        let sides = 1...CameraFormat.maximumDimension
        guard parts.count == 2, let width = parts[0], let height = parts[1],
            sides.contains(width), sides.contains(height)
        else {
            throw UsageError(
                description:
                    "\(option): expected WIDTHxHEIGHT, whole pixels from 1 to \(sides.upperBound), got \"\(text)\""
            )
        }
        return (Double(width), Double(height))
    }
}
