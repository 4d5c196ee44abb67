/*
 * Protocol fuzzing: for each protocol (UCI, OpenTafl, hnefatafl.org), a seeded stream of random
 * byte lines, random word lines and mutated real commands is written to the real hnefi binary
 * (100,000 lines each; 10,000 with HNEFI_QUICK=1), with a few overlong lines among them. A
 * thread drains the engine's output meanwhile. Every write must be taken within a time limit (a
 * hung engine fails the test), and afterwards the engine must answer a known sequence correctly
 * and exit with status 0 at the end of its input (a crash fails the test).
 *
 * Lines that would end the session (quit, goodbye) are left out, and numbers in perft, Hash and
 * Threads commands are made small, so the run stays short; searches are bounded by --depth 1
 * where the protocol takes it from the command line, and by the next command otherwise.
 */
#define _GNU_SOURCE /* strcasestr */
#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/tafl.h"
#include "pipe_process.h"

enum { WRITE_WAIT = 300000, TAIL_MAX = 1 << 16 }; /* ms: a hang guard, never a speed check */

#define BRANDUB                                                                                    \
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
#define START_FEN "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a"

/* The engine's output as it arrives: its total size and its last bytes. */
struct drain {
    struct pipe_process *p;
    pthread_mutex_t lock;
    size_t total, len;
    bool done;
    char tail[TAIL_MAX + 1];
};

/* Drain thread: reads the engine's output until it ends, keeping the tail. */
static void *drain_main(void *arg) {
    struct drain *d = arg;
    char buf[8192];
    for (;;) {
        ssize_t n = read(d->p->from_child, buf, sizeof buf);
        if (n <= 0) break;
        pthread_mutex_lock(&d->lock);
        d->total += (size_t)n;
        if (d->len + (size_t)n > TAIL_MAX) {
            size_t keep = TAIL_MAX / 2 > (size_t)n ? TAIL_MAX / 2 : 0;
            if (keep > d->len) keep = d->len;
            memmove(d->tail, d->tail + d->len - keep, keep);
            d->len = keep;
        }
        size_t take = (size_t)n < TAIL_MAX - d->len ? (size_t)n : TAIL_MAX - d->len;
        memcpy(d->tail + d->len, buf + n - take, take);
        d->len += take;
        d->tail[d->len] = 0;
        pthread_mutex_unlock(&d->lock);
    }
    pthread_mutex_lock(&d->lock);
    d->done = true;
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

/* A small seeded generator (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* Returns the next random number. */
static uint64_t rnd(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

/* Returns a random number below n. */
static size_t below(size_t n) {
    return (size_t)(rnd() % n);
}

/* The words and real commands of one protocol. */
struct proto_corpus {
    const char *name;
    const char *const *seeds;
    size_t nseeds;
    const char *const *words;
    size_t nwords;
};

static const char *const uci_seeds[] = {"uci",
                                        "isready",
                                        "ucinewgame",
                                        "setoption name Variant value brandubh",
                                        "setoption name Variant value copenhagen",
                                        "setoption name MultiPV value 3",
                                        "setoption name Hash value 1",
                                        "setoption name Threads value 1",
                                        "setoption name MoveOverhead value 0",
                                        "setoption name Ponder value true",
                                        "setoption name Clear Hash",
                                        "setoption name Rules value " BRANDUB,
                                        "position startpos",
                                        "position startpos moves d1d3 e5e2 k4i4",
                                        "position fen 3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",
                                        "position fen " START_FEN " moves d1d3",
                                        "go depth 2",
                                        "go nodes 500",
                                        "go movetime 5",
                                        "go wtime 100 btime 100 winc 0 binc 0 movestogo 3",
                                        "go atime 50 dtime 50",
                                        "go infinite",
                                        "go ponder depth 1",
                                        "ponderhit",
                                        "stop",
                                        "d",
                                        "board",
                                        "eval",
                                        "legal",
                                        "perft 1",
                                        "go perft 1",
                                        "debug on",
                                        "help"};
static const char *const uci_words[] = {"uci",
                                        "go",
                                        "position",
                                        "startpos",
                                        "fen",
                                        "moves",
                                        "setoption",
                                        "name",
                                        "value",
                                        "depth",
                                        "nodes",
                                        "movetime",
                                        "wtime",
                                        "btime",
                                        "infinite",
                                        "ponder",
                                        "stop",
                                        "isready",
                                        "MultiPV",
                                        "Variant",
                                        "d1d3",
                                        "k4i4",
                                        "e5e2",
                                        "a1a1",
                                        "d1-d3xd4",
                                        "0",
                                        "-1",
                                        "1",
                                        "99999999999999999999",
                                        "11/11/11",
                                        "a",
                                        "d",
                                        "k",
                                        "legal",
                                        "eval"};
static const char *const otep_seeds[] = {
    "rules " BRANDUB,
    "rules dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/"
    "tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "rules dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: "
    "cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "position /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "side attackers",
    "side defenders",
    "clock 1000 1000 0 0 0 ",
    "clock 500* 900 5 1 3 ",
    "play attackers",
    "play defenders",
    "opponent-move d2-c2 /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/",
    "move /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/",
    "analyze 3 0.01",
    "finish 3",
    "error 2",
    "dump 3",
    "hello"};
static const char *const otep_words[] = {
    "rules", "dim:7",     "start:/3t3/",     "atkf:n",        "position", "side",    "clock",
    "play",  "attackers", "defenders",       "opponent-move", "move",     "analyze", "finish",
    "error", "dump",      "/7/7/7/7/7/7/7/", "d1-d3",         "Kd4-d5--", "|",       "1000*",
    "-5",    "0",         "tfr:w",           "ks:m"};
static const char *const htp_seeds[] = {"board_size 7",
                                        "board_size 11",
                                        "first_move defender",
                                        "time_settings fischer 1 1",
                                        "time_settings un-timed",
                                        "play attacker d1 d3",
                                        "play defender e5 e2",
                                        "play attacker 0d1 0c1",
                                        "play defender 0d3 0c3",
                                        "play attacker resigns",
                                        "generate_move",
                                        "final_status",
                                        "play_from",
                                        "play_to attacker d1",
                                        "play_undo",
                                        "known_command play",
                                        "list_commands",
                                        "name",
                                        "version",
                                        "protocol_version",
                                        "show_board",
                                        "show_board_open_tafl",
                                        "# a comment"};
static const char *const htp_words[] = {
    "play",          "attacker",   "defender", "a",           "D",        "resigns",
    "generate_move", "board_size", "13",       "7",           "11",       "0d4",
    "k11",           "F6",         "z9",       "fischer",     "un-timed", "#",
    "play_to",       "play_undo",  "-1",       "999999999999"};

static const struct proto_corpus corpora[] = {
    {"uci", uci_seeds, sizeof uci_seeds / sizeof *uci_seeds, uci_words,
     sizeof uci_words / sizeof *uci_words},
    {"otep", otep_seeds, sizeof otep_seeds / sizeof *otep_seeds, otep_words,
     sizeof otep_words / sizeof *otep_words},
    {"htp", htp_seeds, sizeof htp_seeds / sizeof *htp_seeds, htp_words,
     sizeof htp_words / sizeof *htp_words},
};

/* Applies one random change to line (length *len, room cap). */
static void mutate(char *line, size_t *len, size_t cap, const struct proto_corpus *c) {
    static const char *const extremes[] = {
        "0", "-1", "18446744073709551616", "2147483648", "", " ", "\t", "\r", "*", "x"};
    size_t n = *len;
    switch (below(7)) {
    case 0: /* flip a byte */
        if (n) line[below(n)] = (char)(1 + below(255));
        break;
    case 1: /* insert a byte */
        if (n + 1 < cap) {
            size_t at = below(n + 1);
            memmove(line + at + 1, line + at, n - at);
            line[at] = (char)below(256);
            n++;
        }
        break;
    case 2: /* delete a span */
        if (n) {
            size_t at = below(n), k = 1 + below(n - at);
            memmove(line + at, line + at + k, n - at - k);
            n -= k;
        }
        break;
    case 3: /* cut the line short */ n = n ? below(n) : 0; break;
    default: { /* insert a word or an extreme value at a space */
        const char *w = below(2) ? c->words[below(c->nwords)] : extremes[below(10)];
        size_t wl = strlen(w), at = n ? below(n + 1) : 0;
        if (n + wl + 1 < cap) {
            memmove(line + at + wl + 1, line + at, n - at);
            memcpy(line + at, w, wl);
            line[at + wl] = ' ';
            n += wl + 1;
        }
        break;
    }
    }
    line[n] = 0;
    *len = n;
}

/* Builds the next fuzz line of protocol c into line (room cap); returns its length. */
static size_t make_line(char *line, size_t cap, const struct proto_corpus *c) {
    size_t n = 0;
    int kind = (int)below(10);
    if (kind < 3) { /* random bytes, NULs and CRs included */
        size_t len = below(120);
        for (size_t i = 0; i < len; i++) {
            char b = (char)below(256);
            line[n++] = b == '\n' ? ' ' : b;
        }
    } else if (kind < 6) { /* random words */
        int words = 1 + (int)below(8);
        for (int i = 0; i < words && n + 64 < cap; i++) {
            const char *w = c->words[below(c->nwords)];
            if (below(5) == 0) w = c->seeds[below(c->nseeds)];
            n += (size_t)snprintf(line + n, cap - n, "%s%s", i ? " " : "", w);
        }
    } else { /* a real command, changed a little */
        n = (size_t)snprintf(line, cap, "%s", c->seeds[below(c->nseeds)]);
        int changes = (int)below(4);
        for (int i = 0; i < changes; i++) mutate(line, &n, cap, c);
    }
    line[n] = 0;
    return n;
}

/* Makes a line safe to send: nothing that ends the session, small perft/Hash/Threads numbers. */
static bool tame(char *line, size_t len) {
    /* a NUL hides the rest of the line from strstr, so look at every byte */
    for (size_t i = 0; i + 4 <= len; i++)
        if (!strncasecmp(line + i, "quit", 4) || (i + 7 <= len && !strncmp(line + i, "goodbye", 7)))
            return false;
    char copy[512];
    size_t k = len < sizeof copy - 1 ? len : sizeof copy - 1;
    for (size_t i = 0; i < k; i++) copy[i] = line[i] ? line[i] : ' ';
    copy[k] = 0;
    if (strcasestr(copy, "perft") || strcasestr(copy, "hash") || strcasestr(copy, "threads"))
        for (size_t i = 0; i < len; i++)
            if (line[i] >= '2' && line[i] <= '9') line[i] = '1';
    return true;
}

/* Returns the tail's last lines: the n-th line from the end (1 = the last), or "". */
static const char *tail_line(const char *tail, int nth, char *out, size_t outlen) {
    size_t len = strlen(tail);
    while (len > 0 && tail[len - 1] == '\n') len--;
    size_t end = len;
    for (int i = 1;; i++) {
        size_t start = end;
        while (start > 0 && tail[start - 1] != '\n') start--;
        if (i == nth) {
            snprintf(out, outlen, "%.*s", (int)(end - start), tail + start);
            return out;
        }
        if (start == 0) break;
        end = start - 1;
    }
    out[0] = 0;
    return out;
}

/* Waits until the drained output's last line starts with want (n-th line from the end). */
static bool wait_tail(struct drain *d, int nth, const char *want, char *got, size_t gotlen,
                      int ms) {
    for (int waited = 0; waited <= ms; waited += 20) {
        pthread_mutex_lock(&d->lock);
        tail_line(d->tail, nth, got, gotlen);
        bool done = d->done;
        pthread_mutex_unlock(&d->lock);
        if (strncmp(got, want, strlen(want)) == 0) return true;
        if (done) return false;
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    return false;
}

/* Counts the legal moves of a variant's start position after the given moves. */
static int legal_count(const char *variant, const char *rules, const char *moves) {
    struct variant v;
    char err[200], buf[256], *save = NULL;
    if (rules)
        opentafl_read_rules(&v, rules, err, sizeof err);
    else
        v = *variant_by_name(variant);
    struct tafl_game *t = tafl_new(&v);
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        tafl_play_text(t, m, err, sizeof err);
    move_t list[MAX_MOVES];
    int n = tafl_legal_moves(t, list);
    tafl_free(t);
    return n;
}

/* Fuzzes one protocol with count lines, then checks the engine still answers and exits 0. */
static void fuzz(const struct proto_corpus *c, long count) {
    struct pipe_process p;
    char *argv[] = {HNEFI_BINARY, (char *)c->name, "--hash", "1", NULL, NULL, NULL};
    if (strcmp(c->name, "uci") != 0) {
        argv[4] = "--depth";
        argv[5] = "1";
    }
    char errpath[64];
    snprintf(errpath, sizeof errpath, "proto_fuzz_%s.stderr", c->name); /* kept for a post-mortem */
    if (!CHECK(pipe_process_start(&p, argv, errpath))) return;
    struct drain *d = calloc(1, sizeof *d);
    d->p = &p;
    pthread_mutex_init(&d->lock, NULL);
    pthread_t th;
    pthread_create(&th, NULL, drain_main, d);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    static char buf[1 << 18];
    long sent = 0, skipped = 0;
    bool alive = true;
    for (long i = 0; i < count && alive; i++) {
        size_t n;
        if (i % 20000 == 19999) { /* an overlong line now and then */
            n = 70000 + below(130000);
            for (size_t k = 0; k < n; k++) buf[k] = (char)('a' + below(26));
        } else {
            n = make_line(buf, 1024, c);
        }
        if (!tame(buf, n)) {
            skipped++;
            i--;
            continue;
        }
        buf[n] = '\n';
        alive = pipe_process_write(&p, buf, n + 1, WRITE_WAIT);
        sent++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!check_record(alive, __FILE__, __LINE__, "the engine takes every fuzz line"))
        fprintf(stderr, "    %s: stopped taking input after %ld lines\n", c->name, sent);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    pthread_mutex_lock(&d->lock);
    size_t total = d->total;
    pthread_mutex_unlock(&d->lock);
    printf("%s: %ld lines (%ld unsafe ones redrawn) in %.1f s, %zu bytes of replies\n", c->name,
           sent, skipped, secs, total);

    /* liveness: a known sequence with known answers */
    char got[4096], want[256];
    if (strcmp(c->name, "uci") == 0) {
        pipe_process_send(&p, "stop", WRITE_WAIT);
        pipe_process_send(&p, "setoption name Variant value copenhagen", WRITE_WAIT);
        pipe_process_send(&p, "position startpos moves d1d3", WRITE_WAIT);
        pipe_process_send(&p, "legal", WRITE_WAIT);
        pipe_process_send(&p, "isready", WRITE_WAIT);
        snprintf(want, sizeof want, "legal %d ", legal_count("copenhagen", NULL, "d1d3"));
        CHECK(wait_tail(d, 1, "readyok", got, sizeof got, WRITE_WAIT));
        if (!CHECK(wait_tail(d, 2, want, got, sizeof got, 1000)))
            fprintf(stderr, "    expected '%s...', got '%.80s'\n", want, got);
    } else if (strcmp(c->name, "otep") == 0) {
        pipe_process_send(&p, "rules " BRANDUB, WRITE_WAIT);
        pipe_process_send(&p, "side attackers", WRITE_WAIT);
        pipe_process_send(&p, "analyze 64 0.2", WRITE_WAIT);
        snprintf(want, sizeof want, "analysis %d ", legal_count(NULL, BRANDUB, ""));
        if (!CHECK(wait_tail(d, 1, want, got, sizeof got, WRITE_WAIT)))
            fprintf(stderr, "    expected '%s...', got '%.80s'\n", want, got);
    } else {
        pipe_process_send(&p, "board_size 11", WRITE_WAIT);
        pipe_process_send(&p, "play attacker d1 d3", WRITE_WAIT);
        pipe_process_send(&p, "show_board_open_tafl", WRITE_WAIT);
        pipe_process_send(&p, "final_status", WRITE_WAIT);
        /* the record after d1d3: FEN rows, top first, in capitals, between slashes */
        struct tafl_game *t = tafl_new(variant_by_name("copenhagen"));
        char fen[FEN_MAX], err[200];
        tafl_play_text(t, "d1d3", err, sizeof err);
        fen_write(tafl_pos(t), fen);
        tafl_free(t);
        *strchr(fen, ' ') = 0;
        for (char *q = fen; *q; q++) *q = (char)toupper((unsigned char)*q);
        snprintf(want, sizeof want, "= /%s/", fen);
        CHECK(wait_tail(d, 1, "= ongoing", got, sizeof got, WRITE_WAIT));
        if (!CHECK(wait_tail(d, 2, want, got, sizeof got, 1000)))
            fprintf(stderr, "    expected '%s', got '%.80s'\n", want, got);
    }
    /* end of input: the engine must exit 0 (it is killed, and fails, if it does not); the drain
       thread reads to the end first, so that nothing else reads or closes its pipe meanwhile */
    pipe_process_close_input(&p);
    bool ended = false;
    for (int waited = 0; !ended && waited < WRITE_WAIT; waited += 10) {
        pthread_mutex_lock(&d->lock);
        ended = d->done;
        pthread_mutex_unlock(&d->lock);
        if (!ended) nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    if (!ended) kill(p.pid, SIGKILL);
    pthread_join(th, NULL);
    int status = pipe_process_wait(&p, WRITE_WAIT);
    if (!CHECK(ended && status == 0)) {
        FILE *f = fopen(errpath, "r");
        char text[4096] = "";
        if (f) {
            text[fread(text, 1, sizeof text - 1, f)] = 0;
            fclose(f);
        }
        fprintf(stderr, "    %s did not exit cleanly; its stderr (%s):\n%s\n", c->name, errpath,
                text);
    }
    pthread_mutex_destroy(&d->lock);
    free(d);
}

/* Fuzzes each protocol in turn, then checks it still answers. */
int main(void) {
    long count = getenv("HNEFI_QUICK") ? 10000 : 100000;
    for (size_t i = 0; i < sizeof corpora / sizeof corpora[0]; i++) {
        rng_state = 0x9E3779B97F4A7C15ULL + i;
        fuzz(&corpora[i], count);
    }
    return check_done();
}
