import Capture
import LaunchTiming
import Locking
import Tracking
import Units

/// The capture session's camera in `headroom run`: draws the synthetic scene as the stand's
/// camera sees it at the moment of each frame, and keeps each frame's ground truth (the people
/// in view, in pixels) for evaluating the tracks afterwards.
///
/// The scene moves on the session's clock: each frame advances it by the time between its
/// timestamp and the previous frame's, so a lower frame rate sees the same people move further
/// between frames, and a run on a virtual clock sees the same scene on any machine.
public final class SceneFrameSource: FrameSource {
    /// People less visible than this are not in the ground truth.
    public let minimumVisibility: Double
    private struct State {
        var scene: SyntheticScene
        var renderer: FrameRenderer
        var pose: CameraPose
        var canvas: GrayFrame
        var lastRender: MonotonicInstant?
        var run = -1
        var truth: [FrameKey: [MOTRecord]] = [:]
    }

    private let state: LockedState<State>
    /// How many of the latest frames' ground truth is kept (the frames still on their way to
    /// the pipeline); older frames' is dropped, so a long run keeps no more than a short one.
    public static let retainedFrames = 32

    /// A source for a `width × height` camera looking at `scene` from `pose`.
    public init(
        scene: SyntheticScene.Configuration, width: Int, height: Int, pose: CameraPose,
        minimumVisibility: Double = 0.3
    ) {
        self.minimumVisibility = minimumVisibility
        state = LockedState(
            State(
                scene: SyntheticScene(configuration: scene),
                renderer: FrameRenderer(
                    width: width, height: height, seed: scene.seed &+ 11, style: scene.style),
                pose: pose, canvas: GrayFrame(width: width, height: height)))
    }

    /// Points the camera: called by the pipeline as the stand moves.
    public func setPose(_ pose: CameraPose) {
        state.withLock { $0.pose = pose }
    }

    /// Renders the scene for `frame` (frames numbered from 0 again start a new run).
    public func render(_ frame: inout Frame) {
        let now = frame.timestamp
        let number = frame.number
        let pixels: [UInt8] = state.withLock { state in
            if number == 0 { state.run += 1 }
            // Only the latest frames, and the previous run's last ones, may still be on their
            // way. By number, not one key a frame: a late camera skips numbers.
            let (run, oldest) = (state.run, number - Self.retainedFrames)
            state.truth = state.truth.filter {
                $0.key.run == run - 1 || ($0.key.run == run && $0.key.number > oldest)
            }
            if let last = state.lastRender {
                state.scene.advance(by: max(.zero, now.duration(since: last)))
            }
            state.lastRender = now
            guard state.canvas.width == frame.width, state.canvas.height == frame.height else {
                return []
            }
            let visible = state.renderer.render(state.scene, from: state.pose, into: &state.canvas)
            let key = FrameKey(run: state.run, number: number)
            state.truth[key] = visible.filter { $0.visibility >= minimumVisibility }.map {
                MOTRecord(frame: 0, id: $0.id, box: $0.box)
            }
            return state.canvas.pixels
        }
        if pixels.count == frame.luma.count { frame.luma = pixels }
    }

    /// How many frames' ground truth is kept.
    var retainedTruthCount: Int { state.withLock { $0.truth.count } }

    /// The people in view in frame `number` of run `run` (pixels), if it was rendered among the
    /// latest ``retainedFrames``.
    public func groundTruth(run: Int, number: Int) -> [MOTRecord]? {
        state.withLock { $0.truth[FrameKey(run: run, number: number)] }
    }
}

/// A frame's identity across restarts of the capture session.
struct FrameKey: Hashable {
    var run: Int
    var number: Int
}
