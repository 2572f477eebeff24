// `import Headroom` brings every public module of the toolkit at once, for applications that
// use several: pricing sessions (Capture), pressure (Pressure), the governor, tracking and the
// stand, storage, launch timing, the history, metrics and reports, the services a run is
// made of (Lifecycle), and the typed time and rates they share (Units). Each module can still be
// imported on its own; `Files` (JSON decoding, atomic writes, `ConfigurationError`) and
// `Locking` (the shared-state primitives) are plumbing, imported by name where wanted.
@_exported import Capture
@_exported import Dock
@_exported import Governor
@_exported import History
@_exported import HostServer
@_exported import HostService
@_exported import LaunchTiming
@_exported import Lifecycle
@_exported import Pipeline
@_exported import Pressure
@_exported import Reports
@_exported import Storage
@_exported import Telemetry
@_exported import Tracking
@_exported import Units
