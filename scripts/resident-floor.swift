// The resident-memory floor of a Swift daemon like headroomd, for scripts/bench-metrics.sh:
// linked the same way (the shared runtime, FoundationEssentials, Dispatch, Concurrency), it
// encodes one JSON document, runs one task and then waits, doing nothing else. What a
// daemon's own work adds is its VmRSS less this one's.
import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

let document = try JSONEncoder().encode(["serving": true])
let started = Task { document.count }
print("floor: \(await started.value) bytes encoded; waiting")
fflush(stdout)
DispatchQueue.global().async { pause() }
while true { pause() }
