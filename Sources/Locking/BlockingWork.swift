/// Blocking work — closing a child process, writing files, waiting for a thread — called from
/// async code without holding a thread of the cooperative pool: the work runs on a worker
/// thread and the caller's task resumes with its result.
///
/// Workers are kept, not started per call: a call takes an idle worker, or starts one when
/// every worker is busy (so that work waiting for other work never waits for a worker), and a
/// worker with nothing to do parks, up to ``keptIdle`` of them; the rest end.
public enum BlockingWork {
    /// The most idle workers kept parked for the next calls.
    public static let keptIdle = 2

    /// Runs `work` on a worker thread and returns its result.
    public static func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async
        -> Result
    {
        await withCheckedContinuation { continuation in
            WorkerPool.shared.submit { continuation.resume(returning: work()) }
        }
    }
}

/// The threads ``BlockingWork`` runs on.
private final class WorkerPool: @unchecked Sendable {
    // Unchecked: `jobs` and `idle` are only touched while `condition` is locked.
    private let condition = ConditionLock()
    private var jobs: [@Sendable () -> Void] = []
    private var idle = 0

    static let shared = WorkerPool()

    /// Queues `job`; starts a worker unless an idle one is left for every queued job.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let needsWorker = jobs.count > idle
        if !needsWorker { condition.signal() }
        condition.unlock()
        if needsWorker { DetachedThread.start(name: "headroom-work") { [self] in work() } }
    }

    /// A worker's life: queued jobs, then parked until the next, or its end when enough others
    /// are parked already.
    private func work() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            guard idle < BlockingWork.keptIdle else { break }
            idle += 1
            condition.wait()
            idle -= 1
        }
        condition.unlock()
    }
}
