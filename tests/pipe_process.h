/*
 * A child process driven through pipes, for tests that talk to the real hnefi binary (protocol
 * transcripts, fuzzing, self-play against external engines).
 *
 * The child's stdin and stdout are pipes held by the test; its stderr goes to /dev/null unless a
 * file is named. Every read waits at most a given number of milliseconds, so a hung child fails
 * the test instead of blocking it. Lines are returned without their '\n' but otherwise exactly as
 * written (a '\r' or a trailing space stays visible). Writes also time out, so a child that stops
 * reading is noticed.
 */
#ifndef HNEFI_TESTS_PIPE_PROCESS_H
#define HNEFI_TESTS_PIPE_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum { PIPE_PROCESS_BUF = 1 << 16 };

struct pipe_process {
    pid_t pid;
    int to_child;   /* the child's stdin, -1 once closed */
    int from_child; /* the child's stdout */
    bool eof;       /* the child closed its stdout */
    size_t start, end;
    char buf[PIPE_PROCESS_BUF];
};

/* Starts argv[0] with argv; stderr goes to stderr_path (NULL: /dev/null). False on failure. */
bool pipe_process_start(struct pipe_process *p, char *const argv[], const char *stderr_path);

/* Writes len bytes to the child within timeout_ms; false if it did not take them all. */
bool pipe_process_write(struct pipe_process *p, const void *data, size_t len, int timeout_ms);

/* Writes a line (text and '\n') within timeout_ms; false on failure. */
bool pipe_process_send(struct pipe_process *p, const char *line, int timeout_ms);

/* Sends one line of len bytes (prefix, then fill bytes) and a '\n'; false on failure. */
bool pipe_process_send_long(struct pipe_process *p, const char *prefix, char fill, size_t len,
                            int timeout_ms);

/*
 * Reads one line into out (cut to outlen - 1 bytes, '\n' removed) within timeout_ms. Returns 1
 * for a line, 0 at the end of the child's output, -1 on timeout.
 */
int pipe_process_read_line(struct pipe_process *p, char *out, size_t outlen, int timeout_ms);

/*
 * Reads lines until one starts with prefix (copied into out if out is not NULL); lines before it
 * are skipped. False if the output ends or timeout_ms pass first.
 */
bool pipe_process_expect(struct pipe_process *p, const char *prefix, char *out, size_t outlen,
                         int timeout_ms);

/* Tells whether a line is ready to read within timeout_ms (without reading it). */
bool pipe_process_poll(struct pipe_process *p, int timeout_ms);

/* Sends line and then reads until a line starting with prefix (see pipe_process_expect). */
bool pipe_process_ask(struct pipe_process *p, const char *line, const char *prefix, char *out,
                      size_t outlen, int timeout_ms);

/* Closes the child's stdin (end of input). */
void pipe_process_close_input(struct pipe_process *p);

/*
 * Closes the child's stdin and waits up to timeout_ms for it to exit (unread output is drained
 * and dropped); kills it if it does not exit. Returns its exit status, or -1 if it was killed by
 * a signal or had to be killed.
 */
int pipe_process_wait(struct pipe_process *p, int timeout_ms);

#endif
