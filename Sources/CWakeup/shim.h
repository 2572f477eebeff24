// The system calls the Pressure module's sampling thread and the Telemetry module's HTTP event
// loops need that Swift's Glibc module does not import: eventfd and epoll (<sys/eventfd.h> and
// <sys/epoll.h> are not in the module, and struct epoll_event is packed), futex waits with an
// absolute deadline, and fstatfs. The threads block on them, so a sample or a request costs one
// wake-up and a stop, a PSI trigger or a stream's next event is seen at once.
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

// A non-blocking, close-on-exec eventfd counting from 0; -1 with errno on failure.
static inline int headroom_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

// A close-on-exec epoll instance; -1 with errno on failure.
static inline int headroom_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

// Adds fd to the epoll instance for events (EPOLLIN, EPOLLPRI), reported with token;
// -1 with errno on failure (EPERM for a file epoll cannot wait on, such as a regular file).
static inline int headroom_epoll_add(int epoll, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

// Changes the events epoll watches fd for, and the token they are reported with.
static inline int headroom_epoll_modify(int epoll, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event);
}

// Removes fd from the epoll instance.
static inline int headroom_epoll_remove(int epoll, int fd) {
    return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
}

// Waits on the epoll instance up to timeout_ns nanoseconds (negative: no timeout), the signal
// mask unchanged; fills tokens and events (capacity entries each) and returns how many are
// ready, 0 at the timeout, -1 with errno. epoll_pwait2 (Linux 5.11) keeps the nanoseconds;
// older kernels wait with epoll_wait, the timeout rounded up to a whole millisecond.
static inline int headroom_epoll_wait(int epoll, uint64_t *tokens, uint32_t *events, int capacity,
                                      int64_t timeout_ns) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count;
    if (timeout_ns < 0) {
        count = epoll_wait(epoll, ready, capacity, -1);
    } else {
        struct timespec timeout = {timeout_ns / 1000000000, timeout_ns % 1000000000};
        count = (int)syscall(SYS_epoll_pwait2, epoll, ready, capacity, &timeout, NULL, 0);
        if (count < 0 && errno == ENOSYS) {
            int64_t milliseconds = (timeout_ns + 999999) / 1000000;
            count = epoll_wait(epoll, ready, capacity, milliseconds > INT32_MAX ? INT32_MAX : (int)milliseconds);
        }
    }
    for (int index = 0; index < count; index++) {
        tokens[index] = ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}

// Accepts a connection from the listening socket as a non-blocking, close-on-exec socket
// (accept4, which Swift's Glibc module hides as a GNU extension; <sys/socket.h> is left out of
// this header, which would take its constants from Glibc), the peer's address in the
// `capacity` bytes at `address`; -1 with errno when none is waiting (EAGAIN) or on failure.
// SOCK_NONBLOCK and SOCK_CLOEXEC are O_NONBLOCK and O_CLOEXEC, as EFD_NONBLOCK and EFD_CLOEXEC.
static inline int headroom_accept(int listener, void *address, unsigned int capacity) {
    unsigned int length = capacity;
    return (int)syscall(SYS_accept4, listener, address, &length, EFD_NONBLOCK | EFD_CLOEXEC);
}

#include <linux/futex.h>

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
