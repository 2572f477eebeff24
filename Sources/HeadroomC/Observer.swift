import Files
import FoundationEssentials
import Locking
import Pressure
import Units

/// `headroom_level_callback`: `void (*)(int previous, int level, void *context)`.
public typealias HeadroomLevelCallback =
    @convention(c) (Int32, Int32, UnsafeMutableRawPointer?) -> Void

/// What `headroom_observer_open` returns: a pressure observer sampling the host on a thread
/// of its own (every second, adaptively), the level the callback last saw, and the callback.
final class CObserver: Sendable {
    typealias Callback = HeadroomLevelCallback

    private struct Listener: @unchecked Sendable {
        // Unchecked: the context is the caller's, handed back untouched on the sampling thread.
        var callback: Callback
        var context: UnsafeMutableRawPointer?
    }

    let observer: PressureObserver
    private let listener = LockedState<Listener?>(nil)
    private let level = LockedState<PressureLevel>(.nominal)
    private let finished = ThreadSemaphore()
    private let task = LockedState<Task<Void, Never>?>(nil)

    init(roots: SystemRoots) {
        observer = PressureObserver(
            source: PressureSampler.system(roots: roots), clock: ContinuousRunClock())
        if let first = observer.sampleOnce() { level.withLock { $0 = first.level } }
    }

    /// Starts sampling; level changes reach the callback on the sampling thread.
    func start() {
        let runner = Task.detached { [self] in
            await observer.run { [self] reading in
                let previous = level.withLock { level in
                    defer { level = reading.level }
                    return level
                }
                guard previous != reading.level, let listener = listener.withLock({ $0 }) else {
                    return
                }
                listener.callback(
                    Int32(previous.rawValue), Int32(reading.level.rawValue), listener.context)
            }
            finished.signal()
        }
        task.withLock { $0 = runner }
    }

    /// The latest level.
    var currentLevel: PressureLevel { level.withLock { $0 } }

    /// Sets (or with `nil`, removes) the level-change callback.
    func setListener(_ callback: Callback?, _ context: UnsafeMutableRawPointer?) {
        listener.withLock { $0 = callback.map { Listener(callback: $0, context: context) } }
    }

    /// Stops sampling and waits until the sampling thread has ended (no callback after).
    func stop() {
        guard let runner = task.withLock({ $0 }) else { return }
        runner.cancel()
        finished.wait()
    }
}

/// Opens an observer of this host's pressure (`sysfs_root`, `procfs_root`: NULL for `/sys`
/// and `/proc`; another tree for tests); it has its first reading when this returns. NULL on
/// failure, with the reason in `headroom_last_error`.
@_cdecl("headroom_observer_open")
public func headroomObserverOpen(
    _ sysfsRoot: UnsafePointer<CChar>?, _ procfsRoot: UnsafePointer<CChar>?
) -> OpaquePointer? {
    var roots = SystemRoots()
    if let sysfsRoot { roots.sysfs = String(cString: sysfsRoot) }
    if let procfsRoot { roots.procfs = String(cString: procfsRoot) }
    for (field, path) in [("sysfs_root", roots.sysfs), ("procfs_root", roots.procfs)] {
        guard FileSystem.isDirectory(path) else {
            LastError.fail(CStatus.invalidArgument, "\(field): \(path) is not a directory")
            return nil
        }
    }
    let observer = CObserver(roots: roots)
    observer.start()
    return OpaquePointer(Unmanaged.passRetained(observer).toOpaque())
}

/// Stops and frees an observer; no callback runs after this returns. NULL is ignored.
@_cdecl("headroom_observer_close")
public func headroomObserverClose(_ handle: OpaquePointer?) {
    guard let handle else { return }
    let observer = Unmanaged<CObserver>.fromOpaque(UnsafeRawPointer(handle))
    observer.takeUnretainedValue().stop()
    observer.release()
}

private func observer(_ handle: OpaquePointer?) -> CObserver? {
    guard let handle else {
        LastError.fail(CStatus.invalidArgument, "observer: expected an open observer, got NULL")
        return nil
    }
    return Unmanaged<CObserver>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// The latest pressure level, `HEADROOM_LEVEL_NOMINAL` (0) to `HEADROOM_LEVEL_SHUTDOWN` (4),
/// or a negative status.
@_cdecl("headroom_pressure_level")
public func headroomPressureLevel(_ handle: OpaquePointer?) -> Int32 {
    guard let observer = observer(handle) else { return CStatus.invalidArgument }
    return Int32(observer.currentLevel.rawValue)
}

/// Thermal headroom `forecast_seconds` (0–60) ahead with Android's meaning and manners
/// (`PowerManager.getThermalHeadroom`): 1.0 at the serious threshold; NaN when unknown, for a
/// horizon outside 0–60 s, or when asked again within 0.5 s.
@_cdecl("headroom_thermal_headroom")
public func headroomThermalHeadroom(_ handle: OpaquePointer?, _ forecastSeconds: Int32) -> Float {
    guard let observer = observer(handle) else { return .nan }
    return Float(observer.observer.thermalHeadroom(forecastSeconds: Double(forecastSeconds)))
}

/// Calls `callback(previous, level, context)` on the observer's sampling thread at every
/// change of level (NULL removes it). The callback must return quickly and must not close
/// the observer.
@_cdecl("headroom_on_level_change")
public func headroomOnLevelChange(
    _ handle: OpaquePointer?, _ callback: HeadroomLevelCallback?,
    _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let observer = observer(handle) else { return CStatus.invalidArgument }
    observer.setListener(callback, context)
    return CStatus.ok
}
