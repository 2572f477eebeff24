import Capture
import Files
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Prices the session `session_json` (the CLI's session schema) and writes the estimate —
/// `{"hardwareCost", "fits", "limitingBudget", "profile", "budgets", "cameras"}`, as
/// `headroom estimate --json` prints it — into `out` as a NUL-terminated string.
/// `HEADROOM_ERROR_INVALID_ARGUMENT` with the field path in the message (`cameras[0].format…`)
/// for a bad session, `HEADROOM_ERROR_BUFFER_TOO_SMALL` when `out_size` cannot hold it.
/// The session's `profile` is a name (built-in or calibrated), never a path: a session handed
/// to a library call may come from anyone, and must not make it read, or tell of, a file.
@_cdecl("headroom_estimate")
public func headroomEstimate(
    _ session: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<CChar>?, _ outSize: Int
) -> Int32 {
    guard let session else {
        return LastError.fail(CStatus.invalidArgument, "session_json: expected JSON, got NULL")
    }
    guard let out, outSize > 0 else {
        return LastError.fail(CStatus.invalidArgument, "out: expected a buffer, got NULL or size 0")
    }
    let estimate: HardwareCostEstimate
    do {
        let configuration = try SessionConfiguration.decode(
            Data(bytes: session, count: strlen(session)))
        let profile = try ProfileCatalog.user(environment: ProcessFacts.environment)
            .profile(named: configuration.profile)
        estimate = HardwareCostEstimator(profile: profile).cost(of: configuration)
    } catch {
        return LastError.fail(CStatus.invalidArgument, "\(error)")
    }
    let data = JSONStyle.document.encodeExplainingFailure(estimate)
    guard data.count < outSize else {
        out[0] = 0
        return LastError.fail(
            CStatus.bufferTooSmall,
            "out: the estimate needs \(data.count + 1) bytes, got \(outSize)")
    }
    data.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(out).copyMemory(from: bytes.baseAddress!, byteCount: data.count)
    }
    out[data.count] = 0
    return CStatus.ok
}
