import CConcurrencyHooks
import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// The threads that run every task of a process that installs them (``install()``), in place
/// of libdispatch's global executor: `headroomd`'s, and the benchmark's that prices it.
///
/// With its first worker thread, libdispatch starts a timer that wakes its manager thread
/// every second for the rest of the process's life (`_dispatch_workq_init_once`, measured
/// with `strace`): a daemon sampling every 5 s woke six times for each sample. Here a few
/// threads wait on one condition for jobs, first come first served, and delayed jobs
/// (`Task.sleep`) wait on Headroom's own timer thread (``Units/MonotonicTimers``): the
/// process wakes when there is work. A task must never block one of these threads (work that
/// blocks runs on a thread of its own, as everywhere in Headroom). The main actor stays
/// libdispatch's (its main queue, drained by libdispatch's threads once a task hops to it):
/// `headroomd`'s main task goes back to it only to exit.
public final class TaskThreads: TaskExecutor, @unchecked Sendable {
    // Unchecked: `jobs`, `head`, `started` and `idle` are only touched with `condition` locked.
    /// The threads of the process (started as jobs come, up to ``count``).
    public static let shared = TaskThreads(
        count: max(2, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))))

    /// How many threads run jobs.
    public let count: Int
    private let condition = ConditionLock()
    /// Jobs waiting, from `head` on (the array is compacted as it drains).
    private var jobs: [UnownedJob] = []
    private var head = 0
    /// Threads started (as jobs came and none was free), and how many wait for a job.
    private var started = 0
    private var idle = 0

    private init(count: Int) {
        self.count = count
    }

    /// Makes these threads the global executor of the process: every task not bound to an
    /// actor runs on them from now on, and `Task.sleep` waits on ``Units/MonotonicTimers``.
    /// Call it first in `main`, before any task starts.
    public static func install() {
        let enqueue: EnqueueHook = { job, _ in TaskThreads.shared.enqueue(job) }
        let delay: DelayHook = { nanoseconds, job, _ in
            let due = MonotonicClock.now().advanced(
                by: .nanoseconds(Int64(clamping: nanoseconds)))
            MonotonicTimers.shared.run(at: due) { TaskThreads.shared.enqueue(job) }
        }
        let deadline: DeadlineHook = { seconds, nanoseconds, _, _, clock, job, _ in
            let due = monotonicDeadline(seconds: seconds, nanoseconds: nanoseconds, clock: clock)
            MonotonicTimers.shared.run(at: due) { TaskThreads.shared.enqueue(job) }
        }
        headroom_set_global_executor_hooks(
            unsafeBitCast(enqueue, to: UnsafeMutableRawPointer.self),
            unsafeBitCast(delay, to: UnsafeMutableRawPointer.self),
            unsafeBitCast(deadline, to: UnsafeMutableRawPointer.self))
    }

    /// Queues `job` for the next free thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    /// Queues `job` for the next free thread.
    public func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        if idle > 0 {
            condition.signal()
        } else if started < count {
            started += 1
            DetachedThread.start(name: "headroom-tasks") { [self] in runUntilExit() }
        }
        condition.unlock()
    }

    /// A thread's loop: the oldest job, run; a wait when there is none.
    private func runUntilExit() {
        let executor = asUnownedTaskExecutor()
        condition.lock()
        while true {
            guard head < jobs.count else {
                idle += 1
                condition.wait()
                idle -= 1
                continue
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
            condition.lock()
        }
    }
}

// The Swift runtime's hooks (include/swift/Runtime/ConcurrencyHooks.def): the job, its delay
// in nanoseconds, or its deadline (seconds and nanoseconds, a leeway, and the clock: 1 the
// continuous clock, otherwise the suspending one), and the runtime's own implementation, not
// used.
private typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
private typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
private typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
private typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
private typealias DeadlineOriginal =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
private typealias DeadlineHook =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

/// A deadline on the Swift runtime's `clock` (1: continuous, `CLOCK_BOOTTIME` on Linux;
/// otherwise suspending, `CLOCK_MONOTONIC`) as an instant on the monotonic clock.
private func monotonicDeadline(seconds: Int64, nanoseconds: Int64, clock: Int32)
    -> MonotonicInstant
{
    var now = timespec()
    clock_gettime(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now)
    let remaining =
        Duration.seconds(seconds - Int64(now.tv_sec))
        + .nanoseconds(nanoseconds - Int64(now.tv_nsec))
    return MonotonicClock.now().advanced(by: max(remaining, .zero))
}
