import CLI
import Daemon
import Lifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// `headroomd [options]`: `headroom serve`, the host daemon, in an executable of its own that
/// links none of the pipeline (see ``DaemonExecutable``); its options, help and exit codes are
/// `headroom serve`'s.
// Every task on Headroom's own threads, before the first one starts: libdispatch's would
// wake the daemon every second for nothing.
TaskThreads.install()
exit(await ServeCommand.command.main(Array(CommandLine.arguments.dropFirst())))
