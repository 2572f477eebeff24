// The resident-memory floor of a Swift daemon like headroomd, for scripts/bench-metrics.sh:
// linked the same way (the runtime and Concurrency linked in; no Foundation, no Dispatch overlay,
// no string processing: built with -disable-implicit-string-processing-module-import), it
// starts one task on a thread of its own, prints a line and then waits, doing nothing else.
// What a daemon's own work adds is its VmRSS less this one's.
#if canImport(Glibc)
    import Glibc
#endif

let started = Task { CommandLine.arguments.count }
print("floor: \(await started.value) argument; waiting")
fflush(stdout)
while true { pause() }
