import CLI
import Files
import Tracking

/// The neural detector's model as a command finds it: where `person-model.sh` installs it
/// (the environment's data directories), read by OpenCV once before anything starts. Missing,
/// or not the model (of another size, or one OpenCV cannot read), is bad input (exit 2), with
/// the command that installs it. The libraries are given the model; they look nothing up.
enum PersonModelInput {
    /// The installed model, checked.
    ///
    /// - Throws: ``UsageError`` naming `--detector person-ssd` and what is wrong.
    static func installed() throws(UsageError) -> PersonModel {
        do throws(PersonModelError) {
            let model = try PersonModel.installed(environment: ProcessFacts.environment)
            _ = try SSDPersonDetector(model: model)
            return model
        } catch {
            throw UsageError(description: "--detector person-ssd: \(error)")
        }
    }
}
