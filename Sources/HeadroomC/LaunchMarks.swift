import Files
import FoundationEssentials
import LaunchTiming

#if canImport(Glibc)
    import Glibc
#endif

/// The in-process timeline the marks go to when the program is not measured, counting from
/// the process's start.
enum ProcessTimeline {
    static let shared = LaunchTimeline.startingAtProcessStart()
}

/// The C API's begins, ends and marks.
public enum CLaunchMarks {
    /// What `headroom_begin`, `headroom_end` and `headroom_mark` do, with `timeline` in
    /// place of the process's own (so that `headroom-bench` can time the recording path on
    /// fresh timelines): into the trace descriptor when the program runs under
    /// `launch measure`, else into `timeline`. Allocates nothing once `name` has been seen.
    @inline(__always)
    public static func record(
        _ kind: TimelineEvent.Kind, _ name: UnsafePointer<CChar>?, into timeline: LaunchTimeline
    ) -> Int32 {
        guard let name, name.pointee != 0 else {
            return LastError.fail(CStatus.invalidArgument, "name: expected a non-empty string")
        }
        if let pipe = TraceDescriptor.given {
            let phase: UInt8 =
                switch kind {
                case .begin: UInt8(ascii: "B")
                case .end: UInt8(ascii: "E")
                case .mark: UInt8(ascii: "i")
                }
            switch TraceDescriptor.write(phase, name, into: pipe) {
            case .success:
                return CStatus.ok
            case .failure(.badName(let problem)):
                return LastError.fail(CStatus.invalidArgument, "name: \(problem)")
            case .failure(.notThePipe):
                return LastError.fail(
                    CStatus.inputOutput,
                    "HEADROOM_TRACE_FD \(pipe.number) is no longer the trace pipe (closed, and"
                        + " the descriptor reused?): the mark is dropped")
            case .failure(.full):
                let dropped = TraceDescriptor.dropped.load(ordering: .relaxed)
                return LastError.fail(
                    CStatus.inputOutput,
                    "HEADROOM_TRACE_FD \(pipe.number): the pipe is full, nobody reads it; the"
                        + " mark is dropped (\(dropped) so far)")
            case .failure(.failed(let code)):
                return LastError.fail(
                    CStatus.inputOutput,
                    "HEADROOM_TRACE_FD \(pipe.number): \(String(cString: strerror(code)))"
                        + (code == EPIPE ? " (the measurement has ended)" : ""))
            }
        }
        let phase = PhaseNames.shared.phase(name)
        switch kind {
        case .begin: timeline.begin(phase)
        case .end: timeline.end(phase)
        case .mark: timeline.mark(phase)
        }
        return CStatus.ok
    }
}

private func record(_ kind: TimelineEvent.Kind, _ name: UnsafePointer<CChar>?) -> Int32 {
    CLaunchMarks.record(kind, name, into: ProcessTimeline.shared)
}

/// A phase called `name` begins now.
@_cdecl("headroom_begin")
public func headroomBegin(_ name: UnsafePointer<CChar>?) -> Int32 { record(.begin, name) }

/// The phase called `name` begun last ends now.
@_cdecl("headroom_end")
public func headroomEnd(_ name: UnsafePointer<CChar>?) -> Int32 { record(.end, name) }

/// An instant called `name` (`first_frame`, `ready`) happens now.
@_cdecl("headroom_mark")
public func headroomMark(_ name: UnsafePointer<CChar>?) -> Int32 { record(.mark, name) }

/// Writes the in-process timeline as a Headroom JSON launch report to `path` (atomically),
/// labelled with the program's name; `headroom launch import` adds it to a history.
@_cdecl("headroom_write_report")
public func headroomWriteReport(_ path: UnsafePointer<CChar>?) -> Int32 {
    guard let path, path.pointee != 0 else {
        return LastError.fail(CStatus.invalidArgument, "path: expected a non-empty path")
    }
    let label = ProcessInfo.processInfo.processName
    let report = ProcessTimeline.shared.report(
        label: label,
        metadata: ["host": ProcessFacts.hostName ?? "localhost", "source": "libheadroom"])
    do {
        try AtomicFile.write(JSONStyle.document.encode(report), to: String(cString: path))
        return CStatus.ok
    } catch {
        return LastError.fail(CStatus.inputOutput, "\(error)")
    }
}
