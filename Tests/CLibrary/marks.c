/* libheadroom's marks under `launch measure` when things go wrong: the trace pipe's reader is
 * gone, the pipe is full and nobody reads it, descriptor 3 was closed and reused for a file,
 * names that are not names. A mark must never kill the program, never block it, never write
 * into the program's own file; it returns the documented error instead.
 * Usage: marks gone|full|reused|names [FILE]; exit 0 when every expectation holds. */
#include <errno.h>
#include <fcntl.h>
#include <headroom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures = 0;

static void expect(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "FAIL %s (last error: %s)\n", what, headroom_last_error());
        failures++;
    }
}

/* A pipe at descriptor 3 with HEADROOM_TRACE_FD and HEADROOM_TRACE_ID naming it, as
 * `launch measure` gives it; returns the read end. */
static int trace_pipe(void) {
    int ends[2];
    if (pipe(ends) != 0) {
        perror("pipe");
        exit(2);
    }
    /* Both ends away from 3 first: a fresh process's pipe is likely (3, 4). */
    int reader = fcntl(ends[0], F_DUPFD, 10), writer = fcntl(ends[1], F_DUPFD, 10);
    close(ends[0]);
    close(ends[1]);
    if (reader < 0 || writer < 0 || dup2(writer, 3) != 3) {
        perror("dup2");
        exit(2);
    }
    close(writer);
    struct stat status;
    fstat(3, &status);
    char identity[64];
    snprintf(identity, sizeof identity, "%llu:%llu", (unsigned long long)status.st_dev,
             (unsigned long long)status.st_ino);
    setenv("HEADROOM_TRACE_FD", "3", 1);
    setenv("HEADROOM_TRACE_ID", identity, 1);
    return reader;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *mode = argv[1];
    int reader = trace_pipe();
    if (strcmp(mode, "gone") == 0) {
        /* The measurement ended: nobody will read. SIGPIPE would kill the program. */
        close(reader);
        int status = headroom_mark("after.the.end");
        expect(status == HEADROOM_ERROR_IO, "a mark into a pipe without a reader is an I/O error");
        expect(strstr(headroom_last_error(), "measurement has ended") != NULL,
               "the error says the measurement ended");
        expect(headroom_mark("again") == HEADROOM_ERROR_IO, "and so is the next");
    } else if (strcmp(mode, "full") == 0) {
        /* Nobody reads: the pipe fills (64 KiB) and marks are dropped, never blocking. */
        int dropped = 0;
        for (int i = 0; i < 20000; i++) {
            if (headroom_mark("flood") == HEADROOM_ERROR_IO) dropped++;
        }
        expect(dropped > 0, "marks into a full pipe are dropped");
        expect(strstr(headroom_last_error(), "full") != NULL, "the error says the pipe is full");
    } else if (strcmp(mode, "reused") == 0 && argc > 2) {
        expect(headroom_mark("before") == HEADROOM_OK, "a mark into the trace pipe");
        /* The program closes descriptor 3 and opens its own data file, which gets number 3. */
        close(3);
        int file = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        expect(file == 3, "the data file took descriptor 3");
        expect(headroom_mark("after") == HEADROOM_ERROR_IO, "no mark into the program's file");
        struct stat status;
        fstat(file, &status);
        expect(status.st_size == 0, "the program's file holds nothing of ours");
    } else if (strcmp(mode, "names") == 0) {
        char long_name[2048];
        memset(long_name, 'x', sizeof long_name - 1);
        long_name[sizeof long_name - 1] = 0;
        expect(headroom_mark("\xff\xfe") == HEADROOM_ERROR_INVALID_ARGUMENT, "invalid UTF-8");
        expect(headroom_mark("clear\x1b[2J") == HEADROOM_ERROR_INVALID_ARGUMENT, "an escape");
        expect(headroom_mark("bell\a") == HEADROOM_ERROR_INVALID_ARGUMENT, "a bell");
        expect(headroom_mark("right\xe2\x80\xaeleft") == HEADROOM_ERROR_INVALID_ARGUMENT,
               "a bidi override");
        expect(headroom_mark(long_name) == HEADROOM_ERROR_INVALID_ARGUMENT, "2047 bytes");
        expect(headroom_mark("caf\xc3\xa9 \"quoted\"") == HEADROOM_OK, "a fine name");
        char line[256] = {0};
        ssize_t count = read(reader, line, sizeof line - 1);
        expect(count > 0 && strstr(line, "\"name\":\"caf\xc3\xa9 \\\"quoted\\\"\"") != NULL,
               "only the fine name reached the pipe, escaped");
        expect(strchr(line, '\n') == line + count - 1, "one line");
    } else {
        return 2;
    }
    return failures == 0 ? 0 : 1;
}
