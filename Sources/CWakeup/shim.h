// eventfd and ppoll, which Swift's Glibc module does not import (ppoll needs _GNU_SOURCE, and
// <sys/eventfd.h> is not in the module): the Pressure module's sampling thread blocks on them
// between samples, so a sample costs one wake-up and a stop or a PSI trigger is seen at once.
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

// A non-blocking, close-on-exec eventfd counting from 0; -1 with errno on failure.
static inline int headroom_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

// ppoll with a timeout in nanoseconds (negative: no timeout) and the signal mask unchanged.
static inline int headroom_ppoll(struct pollfd *fds, nfds_t count, int64_t timeout_ns) {
    if (timeout_ns < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec timeout = {timeout_ns / 1000000000, timeout_ns % 1000000000};
    return ppoll(fds, count, &timeout, NULL);
}
