/* The external-engine player: a child process spoken to with the UCI-like protocol. */
#define _GNU_SOURCE /* pipe2 */
#include "tools/uci_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/opentafl.h"
#include "engine/variant_text.h"

enum { LINE_MAX_LEN = 8192, POLL_SLICE_MS = 50, QUIT_WAIT_MS = 300, STARTUP_MS = 10000 };

/* One engine process and the state of its conversation. */
struct uci_client {
    const struct uci_engine *eng;
    char name[PLAYER_NAME_MAX];
    pid_t pid;
    int to_fd, from_fd;
    char buf[LINE_MAX_LEN];
    size_t blen;
    atomic_bool aborted;
    char *cmdline; /* the last position command, grown as needed */
    size_t cmdcap;
};

/*
 * The process groups of the engines running now, for the signal handler: each engine starts in a
 * group of its own (so that a wrapper script's children die with it), which also keeps it out of
 * the terminal's Ctrl-C; hnefi kills the groups itself when SIGINT, SIGTERM or SIGHUP ends it.
 */
enum { LIVE_GROUPS_MAX = 256 };
static atomic_int live_groups[LIVE_GROUPS_MAX];

/* Kills every live engine group, then ends hnefi by the signal it got. */
static void kill_groups_and_die(int sig) {
    for (int i = 0; i < LIVE_GROUPS_MAX; i++) {
        int g = atomic_load(&live_groups[i]);
        if (g > 0) kill(-g, SIGKILL);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Installs kill_groups_and_die for the ending signals, except those ignored (a background job). */
static void install_handlers(void) {
    static atomic_flag done = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&done)) return;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa = {0};
        sa.sa_handler = kill_groups_and_die;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Notes group g as live (true) or gone (false). */
static void note_group(pid_t g, bool live) {
    for (int i = 0; i < LIVE_GROUPS_MAX; i++) {
        int want = live ? 0 : (int)g;
        if (atomic_compare_exchange_strong(&live_groups[i], &want, live ? (int)g : 0)) return;
    }
}

/* Returns a monotonic time in milliseconds. */
static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Describes how a reaped process ended. */
static void exit_text(int status, char *out, size_t outlen) {
    if (WIFEXITED(status))
        snprintf(out, outlen, "the engine exited with status %d%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == 127 ? " (command not found?)" : "");
    else if (WIFSIGNALED(status))
        snprintf(out, outlen, "the engine was killed by signal %d", WTERMSIG(status));
    else
        snprintf(out, outlen, "the engine stopped");
}

/* Kills (if needed) and reaps the process; describes its end in why (may be NULL). */
static void reap(struct uci_client *c, bool kill_it, char *why, size_t whylen) {
    if (c->pid <= 0) return;
    if (c->to_fd >= 0) close(c->to_fd);
    if (c->from_fd >= 0) close(c->from_fd);
    c->to_fd = c->from_fd = -1;
    int status = 0;
    /* give a dying engine a moment to go by itself (waited for, not yet reaped: while it is not,
       its pid, which names its process group, cannot be taken by another process) */
    for (int64_t until = now_ms() + (kill_it ? 0 : QUIT_WAIT_MS);;) {
        siginfo_t si;
        si.si_pid = 0;
        if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid) break;
        if (now_ms() >= until) break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    kill(-c->pid, SIGKILL);    /* the engine's whole group: what a wrapper script started, too */
    kill(c->pid, SIGKILL);     /* and the engine, should it have left its group */
    note_group(c->pid, false); /* before the reaping frees its pid for reuse */
    pid_t r = waitpid(c->pid, &status, 0);
    if (why && r == c->pid) exit_text(status, why, whylen);
    c->pid = -1;
    c->blen = 0;
}

/* Starts the engine process; false with a reason. */
static bool spawn(struct uci_client *c, char *err, size_t errlen) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return false;
    }
    size_t n = strlen(c->eng->cmd) + 8;
    char *shell_cmd = malloc(n);
    if (!shell_cmd) {
        snprintf(err, errlen, "out of memory");
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return false;
    }
    snprintf(shell_cmd, n, "exec %s", c->eng->cmd);
    /* no ending signal between the fork and the group's note (an engine not noted would outlive
       hnefi), nor in the child before it has the signals' default actions back */
    sigset_t ending, before;
    sigemptyset(&ending);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ending, &before);
    pid_t pid = fork();
    if (pid == 0) {
        const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (int i = 0; i < 3; i++) {
            struct sigaction sa;
            if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == kill_groups_and_die)
                signal(sigs[i], SIG_DFL);
        }
        pthread_sigmask(SIG_SETMASK, &before, NULL);
        setpgid(0, 0);
        int devnull = open("/dev/null", O_WRONLY);
        /* dup3 clears close-on-exec, which dup2 onto the same descriptor (a pipe given fd 0 or
           1 because hnefi's own were closed) would leave set; a pipe end already in place gets
           the flag cleared by hand */
        if (in[0] != 0)
            dup3(in[0], 0, 0);
        else
            fcntl(0, F_SETFD, 0);
        if (out[1] != 1)
            dup3(out[1], 1, 0);
        else
            fcntl(1, F_SETFD, 0);
        if (devnull >= 0) dup2(devnull, 2);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", shell_cmd, (char *)NULL);
        _exit(127);
    }
    free(shell_cmd);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        pthread_sigmask(SIG_SETMASK, &before, NULL);
        snprintf(err, errlen, "cannot start a process: %s", strerror(errno));
        close(in[1]);
        close(out[0]);
        return false;
    }
    setpgid(pid, pid); /* as the child does: whichever runs first, the group exists now */
    note_group(pid, true);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    c->pid = pid;
    c->to_fd = in[1];
    c->from_fd = out[0];
    c->blen = 0;
    return true;
}

/* Writes all n bytes; false on a failed write. */
static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Sends one line; false (the engine is gone) on a failed write. */
static bool send_line(struct uci_client *c, const char *line) {
    return c->to_fd >= 0 && write_all(c->to_fd, line, strlen(line)) && write_all(c->to_fd, "\n", 1);
}

/* Sends a formatted line. */
__attribute__((format(printf, 2, 3))) static bool sendf(struct uci_client *c, const char *fmt,
                                                        ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return send_line(c, line);
}

/* What read_line found. */
enum read_status { READ_LINE, READ_TIMEOUT, READ_EOF, READ_ABORTED };

/* Reads one line (without its newline) by the deadline (absolute, ms); over-long lines are cut. */
static enum read_status read_line(struct uci_client *c, int64_t deadline, char *line,
                                  size_t linelen) {
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->blen);
        if (nl || c->blen == sizeof c->buf) {
            size_t n = nl ? (size_t)(nl - c->buf) : c->blen;
            size_t k = n < linelen - 1 ? n : linelen - 1;
            memcpy(line, c->buf, k);
            line[k] = '\0';
            if (k > 0 && line[k - 1] == '\r') line[k - 1] = '\0';
            size_t used = nl ? n + 1 : n;
            memmove(c->buf, c->buf + used, c->blen - used);
            c->blen -= used;
            return READ_LINE;
        }
        if (atomic_load(&c->aborted)) return READ_ABORTED;
        int64_t left = deadline - now_ms();
        if (left <= 0) return READ_TIMEOUT;
        struct pollfd pfd = {c->from_fd, POLLIN, 0};
        int r = poll(&pfd, 1, (int)(left < POLL_SLICE_MS ? left : POLL_SLICE_MS));
        if (r < 0 && errno != EINTR) return READ_EOF;
        if (r <= 0) continue;
        ssize_t got = read(c->from_fd, c->buf + c->blen, sizeof c->buf - c->blen);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return READ_EOF;
        c->blen += (size_t)got;
    }
}

/* Waits for a line starting with word; false with a reason (crash or timeout) in why. */
static enum player_status wait_for(struct uci_client *c, const char *word, int64_t ms, char *why,
                                   size_t whylen) {
    char line[LINE_MAX_LEN];
    int64_t deadline = now_ms() + ms;
    size_t n = strlen(word);
    for (;;) {
        enum read_status r = read_line(c, deadline, line, sizeof line);
        if (r == READ_LINE) {
            if (strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' '))
                return PLAYER_OK;
            continue;
        }
        if (r == READ_ABORTED) return PLAYER_ABORTED;
        if (r == READ_TIMEOUT) {
            snprintf(why, whylen, "no '%s' within %lld ms", word, (long long)ms);
            reap(c, true, NULL, 0);
            return PLAYER_HUNG;
        }
        char ex[80] = "the engine closed its output";
        reap(c, false, ex, sizeof ex);
        snprintf(why, whylen, "%s while hnefi waited for '%s'", ex, word);
        return PLAYER_CRASHED;
    }
}

/* Describes a failed write: the engine is gone. */
static enum player_status write_failed(struct uci_client *c, char *why, size_t whylen) {
    char ex[80] = "the engine is gone";
    reap(c, false, ex, sizeof ex);
    snprintf(why, whylen, "%s (writing to it failed)", ex);
    return PLAYER_CRASHED;
}

/* Tells whether v is exactly its built-in namesake; *builtin gets that variant. */
static bool is_builtin(const struct variant *v, const struct variant **builtin) {
    *builtin = variant_by_name(v->name);
    if (!*builtin) return false;
    char a[2048], b[2048];
    return variant_describe(v, a, sizeof a) > 0 && variant_describe(*builtin, b, sizeof b) > 0 &&
           strcmp(a, b) == 0;
}

/* Starts the engine and says hello: uci, options, variant, isready. */
static enum player_status start(struct uci_client *c, const struct variant *v, char *why,
                                size_t whylen) {
    int64_t ms = c->eng->startup_ms > 0 ? c->eng->startup_ms : STARTUP_MS;
    if (!spawn(c, why, whylen)) return PLAYER_CRASHED;
    if (!send_line(c, "uci")) return write_failed(c, why, whylen);
    enum player_status st = wait_for(c, "uciok", ms, why, whylen);
    if (st != PLAYER_OK) return st;
    for (int i = 0; i < c->eng->nopts; i++)
        if (!sendf(c, "setoption name %s value %s", c->eng->opt_name[i], c->eng->opt_value[i]))
            return write_failed(c, why, whylen);
    const struct variant *b;
    if (is_builtin(v, &b)) {
        if (strcmp(b->name, "copenhagen") != 0 &&
            !sendf(c, "setoption name Variant value %s", b->name))
            return write_failed(c, why, whylen);
    } else {
        char rules[1024];
        if (opentafl_write_rules(v, rules, sizeof rules) < 0 ||
            !sendf(c, "setoption name Rules value %s", rules))
            return write_failed(c, why, whylen);
    }
    if (!send_line(c, "isready")) return write_failed(c, why, whylen);
    return wait_for(c, "readyok", ms, why, whylen);
}

/* Starts a game: (re)starts a dead engine, then ucinewgame and isready. */
static enum player_status client_new_game(void *self, const struct variant *v, char *err,
                                          size_t errlen) {
    struct uci_client *c = self;
    enum player_status st = PLAYER_OK;
    if (c->pid <= 0) st = start(c, v, err, errlen);
    if (st == PLAYER_OK) {
        if (!send_line(c, "ucinewgame") || !send_line(c, "isready"))
            st = write_failed(c, err, errlen);
        else
            st = wait_for(c, "readyok", c->eng->startup_ms > 0 ? c->eng->startup_ms : STARTUP_MS,
                          err, errlen);
    }
    return st;
}

/* Builds the position command of the game so far into c->cmdline; false if out of memory. */
static bool position_command(struct uci_client *c, const struct tafl_game *game) {
    size_t need = 32 + FEN_MAX + (size_t)game->n * 8;
    if (need > c->cmdcap) {
        char *bigger = realloc(c->cmdline, need);
        if (!bigger) return false;
        c->cmdline = bigger;
        c->cmdcap = need;
    }
    char fen[FEN_MAX];
    fen_write(&game->pos[0], fen);
    int len = snprintf(c->cmdline, c->cmdcap, "position fen %s", fen);
    if (game->n > 0) len += snprintf(c->cmdline + len, c->cmdcap - (size_t)len, " moves");
    for (int i = 0; i < game->n; i++) {
        c->cmdline[len++] = ' ';
        len += move_write(game->moves[i], game->v->size, c->cmdline + len);
    }
    return true;
}

/* Reads the score of an info line into *score; false if it has none. */
static bool info_score(const char *line, int *score) {
    const char *p = strstr(line, " score ");
    if (!p) return false;
    p += 7;
    long v;
    char *end;
    if (strncmp(p, "cp ", 3) == 0) {
        v = strtol(p + 3, &end, 10);
        if (end == p + 3) return false;
        *score = (int)(v > SCORE_WIN ? SCORE_WIN : v < -SCORE_WIN ? -SCORE_WIN : v);
        const char *m = strstr(end, " mate ");
        if (!m) return true;
        p = m + 1;
    }
    if (strncmp(p, "mate ", 5) == 0) {
        v = strtol(p + 5, &end, 10);
        if (end == p + 5 || v == 0 || v > 1000 || v < -1000) return false;
        *score = v > 0 ? SCORE_WIN - (int)(2 * v - 1) : -(SCORE_WIN - (int)(-2 * v));
        return true;
    }
    return false;
}

/* Returns a clock as it is sent to an engine: at least 1 ms (a clock over its time within the
   referee's margin stands below 0, which engines do not expect). */
static int64_t clock_sent(int64_t ms) {
    return ms > 0 ? ms : 1;
}

/* Asks the engine for a move and waits for bestmove by the deadline. */
static enum player_status client_go(void *self, const struct player_go *go,
                                    struct player_reply *out) {
    struct uci_client *c = self;
    memset(out, 0, sizeof *out);
    if (c->pid <= 0) {
        snprintf(out->why, sizeof out->why, "the engine is not running");
        return PLAYER_CRASHED;
    }
    if (!position_command(c, go->game)) {
        snprintf(out->why, sizeof out->why, "out of memory");
        return PLAYER_CRASHED;
    }
    bool ok = send_line(c, c->cmdline);
    const struct time_control *tc = &go->tc;
    switch (tc->kind) {
    case TC_NODES: ok = ok && sendf(c, "go nodes %llu", (unsigned long long)tc->nodes); break;
    case TC_DEPTH: ok = ok && sendf(c, "go depth %d", tc->depth); break;
    case TC_MOVETIME: ok = ok && sendf(c, "go movetime %lld", (long long)tc->movetime_ms); break;
    case TC_CLOCK:
        ok = ok &&
             sendf(c, "go wtime %lld btime %lld winc %lld binc %lld",
                   (long long)clock_sent(go->clock_ms[SIDE_DEFENDERS]),
                   (long long)clock_sent(go->clock_ms[SIDE_ATTACKERS]),
                   (long long)go->inc_ms[SIDE_DEFENDERS], (long long)go->inc_ms[SIDE_ATTACKERS]);
        break;
    }
    if (!ok) return write_failed(c, out->why, sizeof out->why);
    int64_t start = now_ms();
    int64_t deadline = start + (go->deadline_ms > 0 ? go->deadline_ms : INT64_C(1) << 40);
    char line[LINE_MAX_LEN];
    for (;;) {
        enum read_status r = read_line(c, deadline, line, sizeof line);
        if (r == READ_ABORTED) {
            reap(c, true, NULL, 0);
            return PLAYER_ABORTED;
        }
        if (r == READ_TIMEOUT) {
            reap(c, true, NULL, 0);
            snprintf(out->why, sizeof out->why, "no bestmove after %lld ms (killed)",
                     (long long)(now_ms() - start));
            return PLAYER_HUNG;
        }
        if (r == READ_EOF) {
            char ex[80] = "the engine closed its output";
            reap(c, false, ex, sizeof ex);
            snprintf(out->why, sizeof out->why, "%s during its move", ex);
            return PLAYER_CRASHED;
        }
        if (strncmp(line, "info ", 5) == 0) {
            int sc;
            if (info_score(line, &sc)) {
                out->has_score = true;
                out->score = sc;
            }
            continue;
        }
        if (strncmp(line, "bestmove", 8) != 0 || (line[8] != ' ' && line[8] != '\0')) continue;
        char tok[64] = "";
        sscanf(line + 8, " %63s", tok);
        if (!tok[0] || strcmp(tok, "(none)") == 0 || strcmp(tok, "a1a1") == 0) {
            snprintf(out->why, sizeof out->why, "answered 'bestmove %s' (no move)", tok);
            return PLAYER_BAD_MOVE;
        }
        struct move_text mt;
        char err[120];
        if (!move_text_parse(tok, go->game->v->size, &mt, err, sizeof err)) {
            snprintf(out->why, sizeof out->why, "sent '%.40s': %s", tok, err);
            return PLAYER_BAD_MOVE;
        }
        out->move = move_make(mt.from, mt.to);
        return PLAYER_OK;
    }
}

/* Ends a running go at once (any thread). */
static void client_abort(void *self) {
    struct uci_client *c = self;
    atomic_store(&c->aborted, true);
}

/* Says quit, then reaps the process. */
static void client_free(void *self) {
    struct uci_client *c = self;
    if (!c) return;
    if (c->pid > 0) {
        send_line(c, "quit");
        reap(c, false, NULL, 0);
    }
    free(c->cmdline);
    free(c);
}

static const struct player_ops client_ops = {client_new_game, client_go, client_abort, client_free};

/* Makes an external-engine player from spec (spec->ext is a struct uci_engine). */
bool uci_player_create(const struct player_spec *spec, struct player *out, char *err,
                       size_t errlen) {
    const struct uci_engine *eng = spec->ext;
    if (!eng || !eng->cmd || !eng->cmd[0]) {
        snprintf(err, errlen, "%s: no engine command", spec->name);
        return false;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead engine shows as a failed write, not a dead hnefi */
    install_handlers();
    struct uci_client *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    c->eng = eng;
    c->pid = -1;
    c->to_fd = c->from_fd = -1;
    atomic_init(&c->aborted, false);
    snprintf(c->name, sizeof c->name, "%s", spec->name);
    out->ops = &client_ops;
    out->self = c;
    return true;
}
