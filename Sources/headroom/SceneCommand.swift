import CLI
import Capture
import Dock
import Files
import Tracking
import Units

/// `headroom scene DIR`: writes a synthetic sequence as MOTChallenge files.
enum SceneCommand {
    static let command = Command(
        name: "scene",
        forms: [UsageForm("DIR")],
        summary:
            "Write a seeded synthetic sequence: gt.txt, det.txt and the closed-loop tracks.txt.",
        details: """
            Renders the synthetic scene from the simulated stand's pose (or a still camera with
            --fixed), runs the pixel detector every --stride frames at --scale, and the tracker
            and framing in closed loop. Writes DIR/gt.txt (people at least 30% visible),
            DIR/det.txt (every detection, id -1) and DIR/tracks.txt, all atomically. Defaults:
            --seconds 20 --seed 1 --people 6 --scene two-tone --fps 30 --stride 1 --scale 0.5
            --size 320x180. --scene uniform is the scene of earlier releases (one grey per person,
            even light), kept for comparison. --video FILE also encodes the rendered frames
            with ffmpeg (.mp4, .mkv, .y4m, ...), frame 1 of gt.txt being its first, so that
            `headroom run --source FILE --gt DIR/gt.txt` can play the scene back as real video.
            """,
        options: Options.self,
        run: { arguments in
            let directory = try Arguments.destination(
                arguments.single("DIR"), as: .directory, for: "DIR"
            ).path
            var scene = SyntheticScene.Configuration()
            scene.seed = UInt64(arguments[\.seed])
            scene.people = arguments[\.people]
            scene.style = arguments[\.scene]
            let size =
                try TrackCommand.imageSize(arguments[\.size], option: "--size") ?? (320, 180)
            let duration = arguments[\.seconds]
            let frameRate = arguments[\.fps]
            let stride = arguments[\.stride]
            let scale = arguments[\.scale]
            let video = arguments[\.video]
            func run<Rig: CameraRig>(_ rig: Rig) throws -> (
                truth: [MOTRecord], detections: [MOTRecord], tracks: [MOTRecord]
            ) {
                var sceneRun = try SceneRun(
                    scene: scene, rig: rig, width: Int(size.width), height: Int(size.height),
                    tracker: TrackerConfiguration(), scale: scale, stride: stride,
                    frameRate: frameRate)
                let encoder = try video.map {
                    try VideoEncoder(
                        path: $0.path, width: Int(size.width), height: Int(size.height),
                        frameRate: frameRate, layout: .gray, field: "--video")
                }
                var encodingError: ConfigurationError?
                let result = sceneRun.run(duration: duration) { frame in
                    guard encodingError == nil else { return }
                    do throws(ConfigurationError) {
                        try encoder?.write(frame.pixels)
                    } catch {
                        encodingError = error
                    }
                }
                if let encodingError { throw encodingError }
                try encoder?.finish()
                return (result.groundTruth, result.detections, result.hypotheses)
            }
            let result = arguments[\.fixed] ? try run(FixedRig()) : try run(try StandMotors())
            let files = [
                ("gt.txt", result.truth), ("det.txt", result.detections),
                ("tracks.txt", result.tracks),
            ]
            for (name, records) in files {
                try AtomicFile.write(MOTFile.format(records), to: directory + "/" + name)
            }
            if arguments[\.json] {
                Console.json([
                    "directory": directory, "groundTruthBoxes": String(result.truth.count),
                    "detections": String(result.detections.count),
                    "trackBoxes": String(result.tracks.count),
                ])
            } else {
                Console.out(
                    "Wrote \(directory)/gt.txt (\(result.truth.count) boxes), det.txt "
                        + "(\(result.detections.count)), tracks.txt (\(result.tracks.count)).")
            }
            return 0
        })

    /// `headroom scene`'s options.
    struct Options: CommandOptions {
        let seconds = Option<Duration>.seconds(
            "--seconds", "S", "seconds of scene", in: 0.1...3600, default: 20)
        let seed = Option<Int>.integer("--seed", "N", "scene seed", in: 0...Int.max, default: 1)
        let people = Option<Int>.integer(
            "--people", "N", "people in the scene", in: 1...100, default: 6)
        let scene = SceneCommand.styleOption
        let fps = Option<FrameRate>.frameRate(
            "--fps", "F", "frames per second", in: 1...240, default: 30)
        let stride = Option<Int>.integer(
            "--stride", "N", "run the detector every N-th frame", in: 1...100, default: 1)
        let scale = Option<Double>.number(
            "--scale", "S", "detector scale", in: 0.05...1, default: 0.5)
        let size = Option<String?>.text("--size", "WxH", "frame size in pixels (default 320x180)")
        let fixed = Option<Bool>.flag("--fixed", "keep the camera still")
        let video = Option<Destination?>.output(
            "--video", "FILE", "also encode the rendered frames as a video with ffmpeg")
        let json = Option<Bool>.flag("--json", "print the file names and counts as JSON")
    }

    /// `--scene STYLE`: how the synthetic scene's people look.
    static let styleOption = Option<SceneStyle>.choice(
        "--scene", "how people look in the synthetic scene", default: .twoTone)
}
