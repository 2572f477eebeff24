// The system calls the Pressure module's sampling thread needs that Swift's Glibc module does
// not import: eventfd and ppoll (ppoll needs _GNU_SOURCE, <sys/eventfd.h> is not in the
// module), futex waits with an absolute deadline, and fstatfs. The thread blocks on them
// between samples, so a sample costs one wake-up and a stop or a PSI trigger is seen at once.
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <sys/vfs.h>

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

// A non-blocking, close-on-exec eventfd counting from 0; -1 with errno on failure.
static inline int headroom_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

// ppoll with a timeout in nanoseconds (negative: no timeout) and the signal mask unchanged.
static inline int headroom_ppoll(struct pollfd *fds, nfds_t count, int64_t timeout_ns) {
    if (timeout_ns < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec timeout = {timeout_ns / 1000000000, timeout_ns % 1000000000};
    return ppoll(fds, count, &timeout, NULL);
}

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

// Blocks while *word == expected, until the CLOCK_MONOTONIC time deadline_ns (absolute;
// negative: no deadline) or a headroom_futex_wake. 0 when woken or *word already differed;
// -1 with errno ETIMEDOUT at the deadline (EINTR, EAGAIN otherwise).
static inline int headroom_futex_wait_until(uint32_t *word, uint32_t expected, int64_t deadline_ns) {
    struct timespec deadline = {deadline_ns / 1000000000, deadline_ns % 1000000000};
    return (int)syscall(SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, expected,
                        deadline_ns < 0 ? NULL : &deadline, NULL, FUTEX_BITSET_MATCH_ANY);
}

// Wakes every thread blocked in headroom_futex_wait_until on word.
static inline int headroom_futex_wake(uint32_t *word) {
    return (int)syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT32_MAX, NULL, NULL, 0);
}

// Atomic load and increment of a futex word (sequentially consistent).
static inline uint32_t headroom_atomic_load(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }
static inline void headroom_atomic_increment(uint32_t *word) { __atomic_add_fetch(word, 1, __ATOMIC_SEQ_CST); }

// The filesystem type (f_type, such as SYSFS_MAGIC) of an open descriptor; -1 on failure.
static inline long headroom_filesystem_type(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (long)info.f_type : -1;
}
