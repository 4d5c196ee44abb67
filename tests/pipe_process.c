/* A child process behind pipes, with time limits on every read and write. */
#include "pipe_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Returns a monotonic time in milliseconds. */
static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Starts argv[0] with argv; stderr goes to stderr_path (NULL: /dev/null). False on failure. */
bool pipe_process_start(struct pipe_process *p, char *const argv[], const char *stderr_path) {
    int in[2], out[2];
    memset(p, 0, sizeof *p);
    p->to_child = p->from_child = -1;
    signal(SIGPIPE, SIG_IGN);
    if (pipe(in) != 0) return false;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return false;
    }
    if (pid == 0) {
        int err = open(stderr_path ? stderr_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (err >= 0) dup2(err, 2);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        signal(SIGPIPE, SIG_DFL);
        execv(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* later children must not inherit our ends, or this child never sees end of input */
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    p->pid = pid;
    p->to_child = in[1];
    p->from_child = out[0];
    fcntl(p->to_child, F_SETFL, fcntl(p->to_child, F_GETFL) | O_NONBLOCK);
    return true;
}

/* Writes len bytes to the child within timeout_ms; false if it did not take them all. */
bool pipe_process_write(struct pipe_process *p, const void *data, size_t len, int timeout_ms) {
    const char *s = data;
    long long until = now_ms() + timeout_ms;
    while (len > 0) {
        if (p->to_child < 0) return false;
        ssize_t n = write(p->to_child, s, len);
        if (n > 0) {
            s += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
        long long left = until - now_ms();
        if (left <= 0) return false;
        struct pollfd pf = {.fd = p->to_child, .events = POLLOUT};
        poll(&pf, 1, (int)(left < 100 ? left : 100));
    }
    return true;
}

/* Writes a line (text and '\n') within timeout_ms; false on failure. */
bool pipe_process_send(struct pipe_process *p, const char *line, int timeout_ms) {
    return pipe_process_write(p, line, strlen(line), timeout_ms) &&
           pipe_process_write(p, "\n", 1, timeout_ms);
}

/* Sends one line of len bytes (prefix, then fill bytes) and a '\n'; false on failure. */
bool pipe_process_send_long(struct pipe_process *p, const char *prefix, char fill, size_t len,
                            int timeout_ms) {
    char *buf = malloc(len + 1);
    if (!buf) return false;
    memset(buf, fill, len);
    size_t k = strlen(prefix) < len ? strlen(prefix) : len;
    memcpy(buf, prefix, k);
    buf[len] = '\n';
    bool ok = pipe_process_write(p, buf, len + 1, timeout_ms);
    free(buf);
    return ok;
}

/* Waits until some output is buffered; false on end of output or timeout (eof tells which). */
static bool fill(struct pipe_process *p, long long until) {
    if (p->start > 0 && p->start == p->end) p->start = p->end = 0;
    if (p->end == sizeof p->buf && p->start > 0) {
        memmove(p->buf, p->buf + p->start, p->end - p->start);
        p->end -= p->start;
        p->start = 0;
    }
    while (!p->eof) {
        long long left = until - now_ms();
        if (left < 0) return false;
        struct pollfd pf = {.fd = p->from_child, .events = POLLIN};
        int r = poll(&pf, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        ssize_t n = read(p->from_child, p->buf + p->end, sizeof p->buf - p->end);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            p->eof = true;
            return false;
        }
        p->end += (size_t)n;
        return true;
    }
    return false;
}

/*
 * Reads one line into out (cut to outlen - 1 bytes, '\n' removed) within timeout_ms. Returns 1
 * for a line, 0 at the end of the child's output, -1 on timeout.
 */
int pipe_process_read_line(struct pipe_process *p, char *out, size_t outlen, int timeout_ms) {
    long long until = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf + p->start, '\n', p->end - p->start);
        bool full = p->start == 0 && p->end == sizeof p->buf;
        if (nl || full || (p->eof && p->end > p->start)) {
            size_t len = nl ? (size_t)(nl - (p->buf + p->start)) : p->end - p->start;
            size_t k = len < outlen - 1 ? len : outlen - 1;
            memcpy(out, p->buf + p->start, k);
            out[k] = 0;
            p->start += len + (nl ? 1 : 0);
            return 1;
        }
        if (p->eof) return 0;
        if (!fill(p, until)) return p->eof ? 0 : -1;
    }
}

/*
 * Reads lines until one starts with prefix (copied into out if out is not NULL); lines before it
 * are skipped. False if the output ends or timeout_ms pass first.
 */
bool pipe_process_expect(struct pipe_process *p, const char *prefix, char *out, size_t outlen,
                         int timeout_ms) {
    static char line[PIPE_PROCESS_BUF];
    long long until = now_ms() + timeout_ms;
    for (;;) {
        long long left = until - now_ms();
        if (left < 0 || pipe_process_read_line(p, line, sizeof line, (int)left) != 1) return false;
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            if (out) {
                strncpy(out, line, outlen - 1);
                out[outlen - 1] = 0;
            }
            return true;
        }
    }
}

/* Tells whether a line is ready to read within timeout_ms (without reading it). */
bool pipe_process_poll(struct pipe_process *p, int timeout_ms) {
    long long until = now_ms() + timeout_ms;
    for (;;) {
        if (memchr(p->buf + p->start, '\n', p->end - p->start)) return true;
        if (p->eof) return p->end > p->start;
        if (!fill(p, until)) return memchr(p->buf + p->start, '\n', p->end - p->start) != NULL;
    }
}

/* Closes the child's stdin (end of input). */
void pipe_process_close_input(struct pipe_process *p) {
    if (p->to_child >= 0) close(p->to_child);
    p->to_child = -1;
}

/* Sends line and then reads until a line starting with prefix (see pipe_process_expect). */
bool pipe_process_ask(struct pipe_process *p, const char *line, const char *prefix, char *out,
                      size_t outlen, int timeout_ms) {
    return pipe_process_send(p, line, timeout_ms) &&
           pipe_process_expect(p, prefix, out, outlen, timeout_ms);
}

/*
 * Closes the child's stdin and waits up to timeout_ms for it to exit (unread output is drained
 * and dropped); kills it if it does not exit. Returns its exit status, or -1 if it was killed by
 * a signal or had to be killed.
 */
int pipe_process_wait(struct pipe_process *p, int timeout_ms) {
    long long until = now_ms() + timeout_ms;
    int st = 0;
    pipe_process_close_input(p);
    for (;;) {
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        if (r == p->pid) break;
        if (r < 0 || now_ms() > until) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &st, 0);
            close(p->from_child);
            return -1;
        }
        /* keep draining so a child blocked on a full pipe can finish */
        char sink[4096];
        struct pollfd pf = {.fd = p->from_child, .events = POLLIN};
        if (!p->eof && poll(&pf, 1, 10) > 0) {
            ssize_t n = read(p->from_child, sink, sizeof sink);
            if (n <= 0) p->eof = true;
        } else {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
    }
    close(p->from_child);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
