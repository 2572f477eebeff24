/* The floor of a 10 Hz observer of a board's files, for scripts/bench-board.sh: one thread
 * waking on absolute deadlines (ppoll, as headroomd's sampler waits) to pread the same files,
 * those under /proc/pressure every fifth wake only (headroomd reads PSI at most twice a
 * second). Prints the thread's CPU time per wake in microseconds, start-up left out.
 *
 *   cc -O2 -o wake-floor scripts/wake-floor.c
 *   wake-floor SECONDS FILE... */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long nanoseconds(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3 || atoi(argv[1]) <= 0 || argc - 2 > 64) {
        fprintf(stderr, "usage: wake-floor SECONDS FILE... (at most 64 files)\n");
        return 2;
    }
    int count = argc - 2, files[64], isPressure[64];
    for (int i = 0; i < count; i++) {
        files[i] = open(argv[i + 2], O_RDONLY | O_CLOEXEC);
        if (files[i] < 0) { perror(argv[i + 2]); return 1; }
        isPressure[i] = strncmp(argv[i + 2], "/proc/pressure/", 15) == 0;
    }
    int wakes = atoi(argv[1]) * 10;
    char buffer[4096];
    long long deadline = nanoseconds(CLOCK_MONOTONIC);
    long long started = nanoseconds(CLOCK_THREAD_CPUTIME_ID);
    for (int wake = 0; wake < wakes; wake++) {
        deadline += 100000000LL;
        long long left = deadline - nanoseconds(CLOCK_MONOTONIC);
        if (left < 0) left = 0;
        struct timespec timeout = {left / 1000000000LL, left % 1000000000LL};
        ppoll(NULL, 0, &timeout, NULL);
        for (int i = 0; i < count; i++) {
            if (isPressure[i] && wake % 5 != 0) continue;
            if (pread(files[i], buffer, isPressure[i] ? sizeof buffer : 64, 0) < 0) {
                perror(argv[i + 2]);
                return 1;
            }
        }
    }
    printf("%.1f\n", (nanoseconds(CLOCK_THREAD_CPUTIME_ID) - started) / 1000.0 / wakes);
    return 0;
}
