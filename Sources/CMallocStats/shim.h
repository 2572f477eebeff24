// glibc's heap statistics, which Swift's Glibc module does not import (<malloc.h>); the
// benchmarks use them to show that a code path allocates nothing.
#include <malloc.h>
#include <stddef.h>

// Bytes currently allocated from the heap (glibc mallinfo2().uordblks).
static inline size_t cmallocstats_allocated_bytes(void) { return mallinfo2().uordblks; }
