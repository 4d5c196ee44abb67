/*
 * Long sessions: each protocol of the real hnefi binary (uci, otep, htp; tests/pipe_process.h)
 * is driven through many commands of a realistic session: new games, positions, searches with
 * small limits, stops, ponder, option changes, analysis, board displays and errors. The engine's
 * resident memory (VmRSS of /proc/<pid>/status) and open descriptors (/proc/<pid>/fd) are taken
 * after a warm-up (a fifth of the commands) and at the end: memory may not grow by more than a
 * generous bound (16 MiB: allocator noise, never a leak that grows with the session), and the
 * descriptors not at all. Replies are checked as they come (one bestmove per search, a move for
 * each `play`, an answer for each HTP command), so a session out of step fails too.
 *
 * 5000 commands a protocol; HNEFI_LONG=1: 100,000; HNEFI_QUICK=1 (sanitizer builds): 1000.
 * Nothing is timed: every wait is a hang guard only. Built with a sanitizer (whose quarantine
 * holds freed memory), only the descriptors are checked.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/tafl.h"
#include "pipe_process.h"

enum { WAIT = 300000, RSS_BOUND_KB = 16 * 1024 };

/* Under a sanitizer the engine keeps freed memory in quarantine, so its resident size says
   nothing of leaks there (the address sanitizer reports those itself): only descriptors count. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define RULES_BRANDUBH                                                                             \
    "dim:7 name:brandubh surf:n atkf:y tfr:w ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
#define RULES_COPENHAGEN                                                                           \
    "dim:11 name:copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/"          \
    "tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"

static uint64_t rng = 0x10A65E55105ULL;
static char line[1 << 16];

/* Returns the next random number (xorshift64*). */
static uint64_t rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

/* What a process holds: resident memory and open descriptors. */
struct usage {
    long rss_kb;
    int fds;
};

/* Reads the resident memory and the open descriptors of process pid. */
static bool usage_of(pid_t pid, struct usage *u) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    u->rss_kb = -1;
    u->fds = 0;
    if (!f) return false;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) u->rss_kb = strtol(line + 6, NULL, 10);
    fclose(f);
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    if (!d) return false;
    for (struct dirent *e; (e = readdir(d));) u->fds += e->d_name[0] != '.';
    closedir(d);
    return u->rss_kb > 0;
}

/* A session under test: the engine, the count of commands sent, and a replica of its game. */
struct session {
    struct pipe_process *p;
    long sent;
    struct variant v;
    struct tafl_game *t;
};

/* Sends one command, counting it; false if it could not be written. */
static bool send(struct session *s, const char *cmd) {
    s->sent++;
    return pipe_process_send(s->p, cmd, WAIT);
}

/* Makes the replica play in variant v from its start. */
static void replica_reset(struct session *s, const struct variant *v) {
    s->v = *v;
    tafl_free(s->t);
    s->t = tafl_new(&s->v);
}

/* Plays up to n random legal plies on the replica (from its start) and writes them as text
   (`d1d3 e5e2`, or with dashes) into out; the game stays open. */
static void random_plies(struct session *s, int n, bool dash, char *out, size_t len) {
    move_t moves[MAX_MOVES];
    size_t k = 0;
    out[0] = 0;
    tafl_reset(s->t, &s->t->pos[0]);
    for (int i = 0; i < n; i++) {
        int count = tafl_legal_moves(s->t, moves);
        if (count == 0) break;
        move_t m = moves[rnd() % (uint64_t)count];
        tafl_play(s->t, m);
        if (s->t->result != RESULT_NONE) {
            tafl_undo(s->t);
            break;
        }
        char mv[MOVE_TEXT_MAX];
        if (dash)
            move_write_captures(m, BB_EMPTY, s->v.size, mv);
        else
            move_write(m, s->v.size, mv);
        k += (size_t)snprintf(out + k, len - k, "%s%s", k ? " " : "", mv);
    }
}

/* UCI: reads until readyok; counts bestmove and error lines. */
static bool uci_sync(struct session *s, int *bestmoves, int *errors) {
    *bestmoves = *errors = 0;
    if (!send(s, "isready")) return false;
    for (;;) {
        if (pipe_process_read_line(s->p, line, sizeof line, WAIT) != 1) return false;
        if (strcmp(line, "readyok") == 0) return true;
        *bestmoves += strncmp(line, "bestmove ", 9) == 0;
        *errors += strncmp(line, "info string error", 17) == 0;
    }
}

/* UCI: one step of a session (an option, an error, a display, or a position and a search). */
static bool uci_step(struct session *s) {
    static const char *const bad[] = {"go depth x",
                                      "position fen nonsense",
                                      "frobnicate",
                                      "setoption name Nope value 1",
                                      "position startpos moves a1a1",
                                      "setoption name Hash value 0",
                                      "ponderhit"};
    static const char *const go[] = {"go nodes 500",  "go depth 2",          "go movetime 2",
                                     "go infinite",   "go ponder nodes 500", "go wtime 50 btime 50",
                                     "go nodes 50000"};
    char cmd[8192], moves[4096];
    int r = (int)(rnd() % 20), bm, errs;
    bool want_error = false;
    switch (r) {
    case 0: send(s, "ucinewgame"); break;
    case 1:
        snprintf(cmd, sizeof cmd, "setoption name Hash value %d", 1 << (rnd() % 3));
        send(s, cmd);
        break;
    case 2:
        snprintf(cmd, sizeof cmd, "setoption name MultiPV value %d", 1 + (int)(rnd() % 3));
        send(s, cmd);
        break;
    case 3: {
        const char *name = rnd() % 2 ? "brandubh" : "copenhagen";
        snprintf(cmd, sizeof cmd, "setoption name Variant value %s", name);
        send(s, cmd);
        replica_reset(s, variant_by_name(name));
        break;
    }
    case 4:
        snprintf(cmd, sizeof cmd, "setoption name Threads value %d", 1 + (int)(rnd() % 2));
        send(s, cmd);
        break;
    case 5:
        send(s, bad[rnd() % (sizeof bad / sizeof *bad)]);
        want_error = true;
        break;
    case 6: send(s, rnd() % 2 ? "d" : "legal"); break;
    case 7: send(s, "eval"); break;
    default: {
        random_plies(s, (int)(rnd() % 16), false, moves, sizeof moves);
        snprintf(cmd, sizeof cmd, "position startpos%s%s", moves[0] ? " moves " : "", moves);
        send(s, cmd);
        const char *g = go[rnd() % (sizeof go / sizeof *go)];
        send(s, g);
        if (strstr(g, "ponder")) send(s, rnd() % 2 ? "ponderhit" : "stop");
        if (strstr(g, "infinite") || strstr(g, "50000")) send(s, "stop");
        /* the search may end after isready is answered: wait for its bestmove first */
        for (;;) {
            if (pipe_process_read_line(s->p, line, sizeof line, WAIT) != 1) return false;
            if (strncmp(line, "bestmove ", 9) == 0) break;
            if (strncmp(line, "info string error", 17) == 0) {
                fprintf(stderr, "uci: %s\n", line);
                return false;
            }
        }
        break;
    }
    }
    if (!uci_sync(s, &bm, &errs)) return false;
    if (bm != 0 || (want_error && errs == 0) || (!want_error && errs > 0)) {
        fprintf(stderr, "uci: step %d: %d bestmove, %d error lines\n", r, bm, errs);
        return false;
    }
    return true;
}

/* OTEP: reads until a line starting with one of the wanted words; copies it into line. */
static bool otep_expect(struct session *s, const char *a, const char *b) {
    for (;;) {
        if (pipe_process_read_line(s->p, line, sizeof line, WAIT) != 1) return false;
        if (strncmp(line, a, strlen(a)) == 0 || (b && strncmp(line, b, strlen(b)) == 0))
            return true;
    }
}

/* OTEP: one game (new rules, a clock now and then, plies until the end or 30), with analysis
   and errors on the way. */
static bool otep_step(struct session *s) {
    static const char *const bad[] = {"play nobody", "clock 1 2", "position garbage!",
                                      "analyze x y", "side up"};
    bool small = rnd() % 2;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rules %s", small ? RULES_BRANDUBH : RULES_COPENHAGEN);
    struct variant v;
    opentafl_read_rules(&v, small ? RULES_BRANDUBH : RULES_COPENHAGEN, line, sizeof line);
    replica_reset(s, &v);
    if (!send(s, cmd)) return false;
    if (rnd() % 3 == 0 && !send(s, "clock 60000 60000 0 0 0")) return false;
    int ours = (int)(rnd() % 2);
    for (int ply = 0; ply < 30 && s->t->result == RESULT_NONE; ply++) {
        int side = tafl_pos(s->t)->side;
        if (rnd() % 10 == 0) { /* an error the engine answers */
            if (!send(s, bad[rnd() % (sizeof bad / sizeof *bad)]) ||
                !otep_expect(s, "error 0", NULL))
                return false;
        }
        if (rnd() % 12 == 0) { /* analysis of the position */
            if (!send(s, "analyze 2 0.005") || !otep_expect(s, "analysis", NULL)) return false;
        }
        if (side == ours) {
            snprintf(cmd, sizeof cmd, "play %s",
                     side == SIDE_ATTACKERS ? "attackers" : "defenders");
            if (!send(s, cmd) || !otep_expect(s, "move ", "status no legal move")) return false;
            char err[200];
            if (strncmp(line, "move ", 5) != 0 ||
                !tafl_play_text(s->t, line + 5, err, sizeof err)) {
                fprintf(stderr, "otep: '%s' does not play on the replica\n", line);
                return false;
            }
        } else {
            move_t moves[MAX_MOVES];
            int n = tafl_legal_moves(s->t, moves);
            if (n == 0) break;
            move_t m = moves[rnd() % (uint64_t)n];
            char mv[MOVE_TEXT_MAX];
            move_write_captures(m, BB_EMPTY, s->v.size, mv);
            tafl_play(s->t, m);
            snprintf(cmd, sizeof cmd, "opponent-move %s", mv);
            if (!send(s, cmd)) return false;
        }
    }
    return send(s, "finish 0");
}

/* HTP: sends a command and then `protocol_version`, and reads up to the latter's `= 1-beta`
   (HTP replies have no common end: `=` lines are single, `?` ones end with an empty line, a
   board runs over many); the reply's first line is left in first. */
static bool htp_ask(struct session *s, const char *cmd, char *first, size_t len) {
    if (!send(s, cmd) || !send(s, "protocol_version")) return false;
    first[0] = 0;
    for (int i = 0;; i++) {
        if (pipe_process_read_line(s->p, line, sizeof line, WAIT) != 1) return false;
        if (strcmp(line, "= 1-beta") == 0) return true;
        if (i == 0) {
            size_t k = strlen(line) < len - 1 ? strlen(line) : len - 1;
            memcpy(first, line, k);
            first[k] = 0;
        }
    }
}

/* HTP: one game of generated moves on a 7x7 or 11x11 board, with displays, undos and errors. */
static bool htp_step(struct session *s) {
    char reply[512];
    if (!htp_ask(s, rnd() % 2 ? "board_size 7" : "board_size 11", reply, sizeof reply))
        return false;
    if (rnd() % 4 == 0 && !htp_ask(s, "time_settings fischer 5 1", reply, sizeof reply))
        return false;
    for (int ply = 0; ply < 30; ply++) {
        int r = (int)(rnd() % 12);
        const char *cmd = r == 0   ? "show_board"
                          : r == 1 ? "play_undo"
                          : r == 2 ? "play attacker z9 z9"
                          : r == 3 ? "final_status"
                          : r == 4 ? "show_board_open_tafl"
                                   : "generate_move";
        if (!htp_ask(s, cmd, reply, sizeof reply)) return false;
        if (reply[0] != '=' && reply[0] != '?') {
            fprintf(stderr, "htp: '%s' answered '%s'\n", cmd, reply);
            return false;
        }
        if ((r == 2) != (reply[0] == '?') && r != 1 && !strstr(reply, "game is already over")) {
            fprintf(stderr, "htp: '%s' answered '%s'\n", cmd, reply);
            return false;
        }
        if (strstr(reply, "game is already over") || strstr(reply, "resigns")) break;
    }
    return true;
}

/* Runs one protocol's session of n commands; prints and checks its memory and descriptors. */
static void run_session(const char *proto, bool (*step)(struct session *), long n) {
    char *argv[] = {HNEFI_BINARY, (char *)proto, "--hash", "1", "--no-book", NULL, NULL, NULL};
    if (strcmp(proto, "uci") != 0) {
        argv[5] = "--nodes";
        argv[6] = "500";
    }
    struct session s = {.p = malloc(sizeof *s.p)};
    replica_reset(&s, variant_by_name("copenhagen"));
    CHECK(s.p && pipe_process_start(s.p, argv, NULL));
    struct usage start, warm = {0}, end;
    bool ok = true, warmed = false;
    /* a first reply: the program runs (not just its fork) before it is measured */
    int bm, errs;
    char reply[64];
    if (strcmp(proto, "otep") == 0)
        ok = otep_expect(&s, "hello", NULL);
    else if (strcmp(proto, "uci") == 0)
        ok = uci_sync(&s, &bm, &errs);
    else
        ok = htp_ask(&s, "name", reply, sizeof reply);
    CHECK(usage_of(s.p->pid, &start));
    while (ok && s.sent < n) {
        ok = step(&s);
        if (ok && !warmed && s.sent >= n / 5) {
            warmed = usage_of(s.p->pid, &warm);
            CHECK(warmed);
        }
    }
    CHECK(ok);
    CHECK(usage_of(s.p->pid, &end));
    printf("%-4s %7ld commands: VmRSS %ld kB at the start, %ld kB after warm-up, %ld kB at the "
           "end; %d, %d, %d open descriptors\n",
           proto, s.sent, start.rss_kb, warm.rss_kb, end.rss_kb, start.fds, warm.fds, end.fds);
    CHECK(SANITIZED || end.rss_kb - warm.rss_kb <= RSS_BOUND_KB);
    CHECK_EQ_INT(end.fds, warm.fds);
    CHECK_EQ_INT(end.fds, start.fds);
    CHECK_EQ_INT(pipe_process_wait(s.p, WAIT), 0);
    tafl_free(s.t);
    free(s.p);
}

/* Runs the three sessions. */
int main(void) {
    long n = getenv("HNEFI_LONG") && atoi(getenv("HNEFI_LONG"))     ? 100000
             : getenv("HNEFI_QUICK") && atoi(getenv("HNEFI_QUICK")) ? 1000
                                                                    : 5000;
    run_session("uci", uci_step, n);
    run_session("otep", otep_step, n);
    run_session("htp", htp_step, n);
    return check_done();
}
