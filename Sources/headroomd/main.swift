import CLI
import Daemon

#if canImport(Glibc)
    import Glibc
#endif

/// `headroomd [options]`: `headroom serve`, the host daemon, in an executable of its own that
/// links none of the pipeline (see ``DaemonExecutable``); its options, help and exit codes are
/// `headroom serve`'s.
exit(await ServeCommand.command.main(Array(CommandLine.arguments.dropFirst())))
