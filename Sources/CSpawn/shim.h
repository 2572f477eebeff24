// What `headroom launch measure -- CMD` needs to start someone else's program that Swift's
// Glibc module does not import or cannot call: posix_spawn with a prepared descriptor table
// (closefrom is a GNU extension), and pidfd_open, so the exit of a child can be polled
// together with its trace pipe.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/pidfd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

// A spawned child's attributes: a process group of its own, its signal mask empty and the stop
// signals at their default disposition (whatever this process blocks or ignores).
static inline void headroom_spawn_as_own_group(posix_spawnattr_t *attributes) {
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD};
    for (unsigned i = 0; i < sizeof stops / sizeof stops[0]; i++) sigaddset(&defaults, stops[i]);
    posix_spawnattr_setsigmask(attributes, &empty);
    posix_spawnattr_setsigdefault(attributes, &defaults);
    posix_spawnattr_setpgroup(attributes, 0);
    posix_spawnattr_setflags(attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                             POSIX_SPAWN_SETPGROUP);
}

// Starts `path` (searched in PATH when it has no '/') with `argv` and `envp` in a process
// group of its own, its signal mask empty and the stop signals at their default disposition.
// In the child: stdin is /dev/null; stdout and stderr are `output_fd` when it is >= 0
// (stdout only goes to stderr when `stdout_to_stderr`); `trace_fd` becomes descriptor 3; every
// other descriptor above 3 is closed. 0 and *pid on success, an errno value otherwise.
static inline int headroom_spawn(pid_t *pid, const char *path, char *const argv[],
                                 char *const envp[], int trace_fd, int output_fd,
                                 int stdout_to_stderr) {
    // dup2 onto itself would keep close-on-exec set: move the trace end off 3 first.
    int moved = -1;
    if (trace_fd == 3) {
        moved = fcntl(trace_fd, F_DUPFD_CLOEXEC, 10);
        if (moved < 0) return errno;
        trace_fd = moved;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) goto done;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) { posix_spawn_file_actions_destroy(&actions); goto done; }

    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (output_fd >= 0) {
        posix_spawn_file_actions_adddup2(&actions, output_fd, 1);
        posix_spawn_file_actions_adddup2(&actions, output_fd, 2);
    } else if (stdout_to_stderr) {
        posix_spawn_file_actions_adddup2(&actions, 2, 1);
    }
    posix_spawn_file_actions_adddup2(&actions, trace_fd, 3);
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);

    headroom_spawn_as_own_group(&attributes);
    status = posix_spawnp(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
done:
    if (moved >= 0) close(moved);
    return status;
}

// Starts `path` (searched in PATH when it has no '/') with `argv` and `envp` in a process
// group of its own, its signal mask empty and the stop signals at their default disposition,
// its standard input, output and error the descriptors given (-1: /dev/null), every other
// descriptor closed. 0 and *pid on success, an errno value otherwise.
static inline int headroom_spawn_streams(pid_t *pid, const char *path, char *const argv[],
                                         char *const envp[], int input_fd, int output_fd,
                                         int error_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    int fds[3] = {input_fd, output_fd, error_fd};
    for (int target = 0; target < 3; target++) {
        if (fds[target] < 0) {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null",
                                             target == 0 ? O_RDONLY : O_WRONLY, 0);
        } else {
            posix_spawn_file_actions_adddup2(&actions, fds[target], target);
        }
    }
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    headroom_spawn_as_own_group(&attributes);
    status = posix_spawnp(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

// A descriptor that becomes readable when process `pid` exits; -1 with errno on failure
// (ENOSYS before Linux 5.3).
static inline int headroom_pidfd_open(pid_t pid) { return pidfd_open(pid, 0); }

// The pieces of a wait status that Swift cannot reach through the C macros.
static inline int headroom_exited(int status) { return WIFEXITED(status); }
static inline int headroom_exit_status(int status) { return WEXITSTATUS(status); }
static inline int headroom_signalled(int status) { return WIFSIGNALED(status); }
static inline int headroom_terminating_signal(int status) { return WTERMSIG(status); }

int pipe2(int fds[2], int flags);

// A close-on-exec pipe (non-blocking at both ends when `nonblocking`); 0, or -1 with errno.
static inline int headroom_pipe(int fds[2], int nonblocking) {
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}
