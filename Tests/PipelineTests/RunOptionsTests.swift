import Capture
import Files
import Pipeline
import Testing
import Tracking

/// The rules between a run's options, and between them and what it reads from.
struct RunOptionsTests {
    /// The path of the error `options.validate(with: inputs)` throws, or nil.
    func refusal(_ options: RunOptions, _ inputs: RunInputs = RunInputs()) -> String? {
        do throws(ConfigurationError) {
            try options.validate(with: inputs)
            return nil
        } catch {
            return error.path
        }
    }

    @Test("the defaults are valid; each broken rule is named by its option")
    func rules() {
        #expect(refusal(RunOptions()) == nil)
        var options = RunOptions()
        options.priority = 101
        #expect(refusal(options) == "priority")
        options = RunOptions(duration: .zero)
        #expect(refusal(options) == "duration")
        options = RunOptions()
        options.lease = .zero
        #expect(refusal(options) == "lease")
        options = RunOptions()
        options.outputs.recording = "movie.y4m"
        #expect(refusal(options) == "outputs.recording")
        options.addMovieOutput()
        #expect(refusal(options) == nil)
        options = RunOptions()
        options.detector = .personSSD
        #expect(refusal(options) == "inputs.personModel")
    }

    @Test("a video is played only from its own opened reader; the scene from none")
    func videoInput() {
        let video = RunOptions(
            source: .video(input: .file("clip.mp4"), pacing: .max, groundTruth: []))
        #expect(refusal(video) == "inputs.video")
        #expect(video.playsVideo && !RunOptions().playsVideo)
        #expect(video.pass(governance: .off, outputs: RunOptions.Outputs()).governance == .off)
    }
}
