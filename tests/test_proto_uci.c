/*
 * Transcript tests of the UCI-like protocol: the real hnefi binary driven through pipes
 * (tests/pipe_process.h). Every command and reply of docs/protocol.md, the search thread (stop,
 * isready and quit during a search, infinite and ponder searches held until stop/ponderhit), the
 * TaflZero driver's flow, and every kind of bad input, after which the engine must still have its
 * position and options and still answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine/notation.h"
#include "engine/tafl.h"
#include "pipe_process.h"
#include "search/nnue.h"

enum { WAIT = 300000 }; /* ms: a hang fails, never a slow run (sanitizers, a loaded machine) */

#define START_FEN "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a"

static char line[1 << 16];

/* Starts hnefi with the given first argument (NULL: no command). */
static bool start(struct pipe_process *p, const char *cmd) {
    char *argv[] = {HNEFI_BINARY, (char *)cmd, NULL};
    return pipe_process_start(p, argv, NULL);
}

/* Returns milliseconds of monotonic time. */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000 + (double)t.tv_nsec / 1e6;
}

/* Sends cmd, then isready, and checks that readyok is the very next line (cmd is silent). */
static bool silent(struct pipe_process *p, const char *cmd) {
    pipe_process_send(p, cmd, WAIT);
    pipe_process_send(p, "isready", WAIT);
    int r = pipe_process_read_line(p, line, sizeof line, WAIT);
    if (r != 1 || strcmp(line, "readyok") != 0) {
        fprintf(stderr, "    after '%.60s': expected readyok, got '%s'\n", cmd, r == 1 ? line : "");
        return false;
    }
    return true;
}

/* Sends cmd and checks that the next line is an error containing want. */
static bool error_reply(struct pipe_process *p, const char *cmd, const char *want) {
    pipe_process_send(p, cmd, WAIT);
    int r = pipe_process_read_line(p, line, sizeof line, WAIT);
    bool ok = r == 1 && strncmp(line, "info string error: ", 19) == 0 && strstr(line, want);
    if (!ok)
        fprintf(stderr, "    after '%.60s': expected an error with '%s', got '%s'\n", cmd, want,
                line);
    return ok;
}

/* Returns the FEN the engine reports with `d`. */
static const char *board_fen(struct pipe_process *p) {
    static char fen[256];
    if (!pipe_process_ask(p, "d", "fen ", fen, sizeof fen, WAIT)) return "";
    CHECK(pipe_process_expect(p, "variant ", NULL, 0, WAIT)); /* the last line of d */
    return fen + 4;
}

/* Reads up to bestmove; checks every info line's fields; returns the move text (or ""). */
static const char *search_reply(struct pipe_process *p, int *infos, int *max_multipv) {
    static char best[64];
    *infos = 0;
    if (max_multipv) *max_multipv = 0;
    while (pipe_process_read_line(p, line, sizeof line, WAIT) == 1) {
        if (strncmp(line, "bestmove ", 9) == 0) {
            snprintf(best, sizeof best, "%.60s", line + 9);
            return best;
        }
        if (strncmp(line, "info depth ", 11) != 0) continue;
        (*infos)++;
        static const char *const fields[] = {" seldepth ", " multipv ", " score cp ", " winrate ",
                                             " nodes ",    " nps ",     " speed ",    " hashfull ",
                                             " time ",     " pv "};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            if (!CHECK(strstr(line, fields[i])))
                fprintf(stderr, "    %s lacks%s\n", line, fields[i]);
        const char *mp = strstr(line, " multipv ");
        if (mp && max_multipv && atoi(mp + 9) > *max_multipv) *max_multipv = atoi(mp + 9);
    }
    return "";
}

/* Tells whether move text is legal in the position given by fen and moves. */
static bool legal_after(const char *variant, const char *fen, const char *moves, const char *mv) {
    const struct variant *v = variant_by_name(variant);
    struct position start;
    char err[200], buf[4096], *save = NULL;
    if (!fen)
        pos_init_start(&start, v);
    else if (!fen_parse(&start, v, fen, err, sizeof err))
        return false;
    struct tafl_game *t = tafl_new(v);
    tafl_reset(t, &start);
    snprintf(buf, sizeof buf, "%s", moves ? moves : "");
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        tafl_play_text(t, m, err, sizeof err);
    bool ok = tafl_play_text(t, mv, err, sizeof err);
    tafl_free(t);
    return ok;
}

/* uci, isready, the option list before uciok, and the extras d, legal, eval, perft. */
static void test_handshake(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, "uci"))) return;
    pipe_process_send(&p, "uci", WAIT);
    int options = 0;
    bool name = false, author = false, uciok = false;
    while (pipe_process_read_line(&p, line, sizeof line, WAIT) == 1) {
        if (strncmp(line, "id name hnefi", 13) == 0) name = true;
        if (strncmp(line, "id author ", 10) == 0) author = true;
        if (strncmp(line, "option name ", 12) == 0) {
            CHECK(!uciok); /* options come before uciok */
            for (const char *o = "Variant Hash Threads MultiPV MoveOverhead Ponder Eval EvalFile";
                 *o;) {
                size_t len = strcspn(o, " ");
                if (strncmp(line + 12, o, len) == 0 && line[12 + len] == ' ') options++;
                o += len + (o[len] == ' ');
            }
        }
        if (strcmp(line, "uciok") == 0) {
            uciok = true;
            break;
        }
    }
    CHECK(name && author && uciok);
    CHECK_EQ_INT(options, 8);
    CHECK(pipe_process_ask(&p, "isready", "readyok", NULL, 0, WAIT));
    CHECK(silent(&p, "ucinewgame"));
    CHECK(silent(&p, "position startpos"));
    CHECK_EQ_STR(board_fen(&p), START_FEN);
    CHECK(pipe_process_ask(&p, "legal", "legal ", line, sizeof line, WAIT));
    CHECK(strncmp(line, "legal 116 ", 10) == 0);
    CHECK(pipe_process_ask(&p, "eval", "eval ", line, sizeof line, WAIT));
    CHECK(strstr(line, "attackers"));
    CHECK(pipe_process_ask(&p, "perft 2", "perft 2: ", line, sizeof line, WAIT));
    CHECK(strstr(line, " 6788 nodes"));
    CHECK(pipe_process_ask(&p, "go perft 3", "perft 3: ", line, sizeof line, WAIT));
    CHECK(strstr(line, " 806344 nodes"));
    CHECK(pipe_process_ask(&p, "help", "info string commands:", NULL, 0, WAIT));
    CHECK(silent(&p, "debug on"));
    CHECK(silent(&p, "   "));
    CHECK(silent(&p, ""));
    CHECK(silent(&p, "position startpos moves d1d3 e5e2 k4i4"));
    CHECK(pipe_process_ask(&p, "d", "variant copenhagen, defenders to move, 3 plies played", NULL,
                           0, WAIT));
    CHECK(pipe_process_ask(&p, "quit", "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* Writes a network of small random weights for variant name into path; false on failure. */
static bool write_net(const char *name, const char *path) {
    const struct variant *v = variant_by_name(name);
    struct nnue_net net = {0};
    snprintf(net.variant, sizeof net.variant, "%s", v->name);
    net.size = v->size;
    net.arch = NNUE_ARCH_KING_REACH;
    net.inputs = nnue_inputs_of(net.arch, v->size * v->size);
    net.hidden = 32;
    net.buckets = 1;
    net.scale = 174;
    size_t n = (size_t)net.inputs * 32 + 32 + 2 * 32;
    int16_t *w = calloc(n, sizeof *w);
    if (!w) return false;
    for (size_t i = 0; i < n; i++) w[i] = (int16_t)((i * 7919) % 61 - 30);
    net.w1 = w;
    net.b1 = w + (size_t)net.inputs * 32;
    net.w2 = net.b1 + 32;
    uint8_t *bytes = malloc(nnue_file_size(&net));
    FILE *f = bytes ? fopen(path, "wb") : NULL;
    bool ok = f && fwrite(bytes, 1, nnue_write(&net, bytes), f) == nnue_file_size(&net);
    if (f) ok &= fclose(f) == 0;
    free(bytes);
    free(w);
    return ok;
}

/* The evaluation options: Eval, EvalFile (and TaflZero's NNFile), bad files refused, state kept. */
static void test_eval_options(void) {
    const char *net = "test_proto_uci_net.nnue";
    if (!CHECK(write_net("copenhagen", net))) return;
    struct pipe_process p;
    if (!CHECK(start(&p, "uci"))) return;
    CHECK(pipe_process_ask(&p, "eval", "eval ", line, sizeof line, WAIT));
    CHECK(strstr(line, "classical evaluation") || strstr(line, "built-in network"));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s", net);
    CHECK(silent(&p, cmd));
    CHECK(pipe_process_ask(&p, "eval", "eval ", line, sizeof line, WAIT));
    CHECK(strstr(line, "network test_proto_uci_net.nnue"));
    /* a missing file and one that is no network are refused, and the network stays */
    CHECK(error_reply(&p, "setoption name EvalFile value /nonexistent.nnue", "cannot open"));
    snprintf(cmd, sizeof cmd, "setoption name NNFile value %s", HNEFI_TEST_DATA "/tactics.tsv");
    CHECK(error_reply(&p, cmd, "not a hnefi network"));
    CHECK(pipe_process_ask(&p, "eval", "eval ", line, sizeof line, WAIT));
    CHECK(strstr(line, "network test_proto_uci_net.nnue"));
    pipe_process_send(&p, "go depth 3", WAIT);
    int infos;
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
    /* the classical evaluation on demand; a network only for the variant it was made for */
    CHECK(silent(&p, "setoption name Eval value classic"));
    CHECK(pipe_process_ask(&p, "eval", "eval ", line, sizeof line, WAIT));
    CHECK(strstr(line, "; classical evaluation"));
    CHECK(error_reply(&p, "setoption name Eval value fast", "expected nnue or classic"));
    CHECK(silent(&p, "setoption name Eval value nnue"));
    CHECK(silent(&p, "setoption name Variant value brandubh"));
    CHECK(pipe_process_ask(&p, "eval", "eval ", line, sizeof line, WAIT));
    CHECK(!strstr(line, "test_proto_uci_net"));
    CHECK(silent(&p, "setoption name EvalFile value <builtin>"));
    CHECK(pipe_process_ask(&p, "quit", "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    /* the command line sets what `uci` calls the defaults */
    char *argv[] = {HNEFI_BINARY, "uci", "--eval", "classic", "--net", (char *)net, NULL};
    if (CHECK(pipe_process_start(&p, argv, NULL))) {
        CHECK(pipe_process_ask(&p, "uci", "option name Eval type combo default classic", NULL, 0,
                               WAIT));
        CHECK(pipe_process_expect(&p, "option name EvalFile type string default test_proto", NULL,
                                  0, WAIT));
        CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    }
    remove(net);
}

/* Bounded searches: depth, nodes, movetime, clocks, MultiPV; every bestmove legal. */
static void test_searches(void) {
    struct pipe_process p;
    int infos, mpv;
    if (!CHECK(start(&p, "uci"))) return;
    CHECK(silent(&p, "position startpos moves d1d3"));
    pipe_process_send(&p, "go depth 3", WAIT);
    const char *best = search_reply(&p, &infos, NULL);
    CHECK_EQ_INT(infos, 3);
    CHECK(legal_after("copenhagen", NULL, "d1d3", best));
    pipe_process_send(&p, "go nodes 3000", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    pipe_process_send(&p, "go movetime 200", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    /* defenders to move: white = defenders (wtime), black = attackers (btime) */
    pipe_process_send(&p, "go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    pipe_process_send(&p, "go dtime 1500 atime 1 dinc 0 ainc 0", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    pipe_process_send(&p, "go wtime 0 btime 0", WAIT); /* a flagged clock still gets a move */
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    CHECK(error_reply(&p, "go btime 1000", "not the one of the side to move"));
    /* MultiPV 3: three lines per depth */
    CHECK(silent(&p, "setoption name MultiPV value 3"));
    pipe_process_send(&p, "go depth 2", WAIT);
    search_reply(&p, &infos, &mpv);
    CHECK_EQ_INT(infos, 6);
    CHECK_EQ_INT(mpv, 3);
    CHECK(pipe_process_ask(&p, "setoption name MultiPV value 100", "info string MultiPV 100", NULL,
                           0, WAIT));
    CHECK(silent(&p, "setoption name MultiPV value 1"));
    /* other variants and rules */
    CHECK(silent(&p, "setoption name Variant value brandubh"));
    CHECK_EQ_STR(board_fen(&p), "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a");
    CHECK(silent(&p, "position startpos moves d2c2"));
    pipe_process_send(&p, "go depth 4", WAIT);
    CHECK(legal_after("brandubh", NULL, "d2c2", search_reply(&p, &infos, NULL)));
    CHECK(silent(&p, "setoption name Rules value dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: "
                     "cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y "
                     "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"));
    CHECK_EQ_STR(board_fen(&p), "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a");
    CHECK(silent(&p, "setoption name Variant value copenhagen"));
    CHECK(silent(&p, "setoption name Hash value 2"));
    CHECK(silent(&p, "setoption name Threads value 2"));
    CHECK(silent(&p, "setoption name MoveOverhead value 10"));
    CHECK(silent(&p, "setoption name Clear Hash"));
    pipe_process_send(&p, "go depth 3", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
    CHECK(silent(&p, "setoption name Ponder value true"));
    pipe_process_send(&p, "go depth 3", WAIT);
    best = search_reply(&p, &infos, NULL);
    CHECK(strstr(best, " ponder ")); /* with the Ponder option on, bestmove names a reply */
    /* a king loaded between two attackers was not captured: no move closed the trap */
    CHECK(silent(&p, "setoption name Variant value linnaeus"));
    CHECK(silent(&p, "position fen 9/9/9/2aka4/9/9/9/3d5/6a2 d"));
    pipe_process_send(&p, "go depth 3", WAIT);
    CHECK(legal_after("linnaeus", "9/9/9/2aka4/9/9/9/3d5/6a2 d", NULL,
                      search_reply(&p, &infos, NULL)));
    CHECK(silent(&p, "setoption name Variant value copenhagen"));
    /* a finished game: no move, and why */
    CHECK(silent(&p, "position fen 11/11/11/11/11/11/4aka4/11/5a5/11/11 a moves f3f4"));
    CHECK(pipe_process_ask(&p, "go depth 3", "info string the game is over: attackers win", NULL, 0,
                           WAIT));
    CHECK(pipe_process_expect(&p, "bestmove (none)", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/*
 * Command-line settings and the move time: hnefi uci --hash, --threads and --move-overhead become
 * the defaults `uci` reports, and `go movetime` is used whole whatever the overhead (the overhead
 * is for clocks): bestmove comes no sooner than the move time (a lower bound only, so a loaded
 * machine cannot fail it).
 */
static void test_command_line_options(void) {
    struct pipe_process p;
    char *argv[] = {HNEFI_BINARY,      "uci", "--hash", "8", "--threads", "2",
                    "--move-overhead", "250", NULL};
    if (!CHECK(pipe_process_start(&p, argv, NULL))) return;
    pipe_process_send(&p, "uci", WAIT);
    int seen = 0;
    while (pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strcmp(line, "uciok")) {
        seen += strncmp(line, "option name Hash type spin default 8 ", 37) == 0;
        seen += strncmp(line, "option name Threads type spin default 2 ", 40) == 0;
        seen += strncmp(line, "option name MoveOverhead type spin default 250 ", 47) == 0;
    }
    CHECK_EQ_INT(seen, 3);
    CHECK(silent(&p, "setoption name Threads value 1"));
    CHECK(silent(&p, "position startpos"));
    int infos;
    double t0 = now_ms();
    pipe_process_send(&p, "go movetime 300", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
    double waited = now_ms() - t0;
    if (!CHECK(waited >= 300))
        fprintf(stderr, "    bestmove after %.0f ms of a 300 ms move time\n", waited);
    CHECK(pipe_process_ask(&p, "quit", "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* Reads lines for ms milliseconds; returns true if none of them was a bestmove. */
static bool no_bestmove_for(struct pipe_process *p, int ms) {
    double until = now_ms() + ms;
    for (;;) {
        double left = until - now_ms();
        if (left <= 0) return true;
        int r = pipe_process_read_line(p, line, sizeof line, (int)left);
        if (r == 0) return false;
        if (r < 0) return true;
        if (strncmp(line, "bestmove", 8) == 0) return false;
    }
}

/* go infinite and go ponder hold bestmove until stop/ponderhit; isready answers meanwhile. */
static void test_held_searches(void) {
    struct pipe_process p;
    int infos;
    if (!CHECK(start(&p, "uci"))) return;
    CHECK(silent(&p, "position startpos"));
    pipe_process_send(&p, "go infinite", WAIT);
    CHECK(no_bestmove_for(&p, 600));
    CHECK(pipe_process_ask(&p, "isready", "readyok", NULL, 0, WAIT));
    double t0 = now_ms();
    pipe_process_send(&p, "stop", WAIT);
    const char *best = search_reply(&p, &infos, NULL);
    printf("stop -> bestmove after an infinite search: %.1f ms\n", now_ms() - t0);
    CHECK(legal_after("copenhagen", NULL, NULL, best));
    CHECK(silent(&p, "stop")); /* nothing is searching: no reply */
    /* a search that ends by itself (depth 2) still waits for stop */
    pipe_process_send(&p, "go infinite depth 2", WAIT);
    CHECK(no_bestmove_for(&p, 400));
    pipe_process_send(&p, "stop", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
    /* a bare go searches until stop */
    pipe_process_send(&p, "go", WAIT);
    CHECK(no_bestmove_for(&p, 300));
    pipe_process_send(&p, "stop", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
    /* ponder, then ponderhit: the search goes on under the real limits */
    CHECK(silent(&p, "position startpos moves d1d3"));
    pipe_process_send(&p, "go ponder wtime 1000 btime 1000", WAIT);
    CHECK(no_bestmove_for(&p, 400));
    pipe_process_send(&p, "ponderhit", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    /* a ponder search that finished (depth 2) answers at ponderhit */
    pipe_process_send(&p, "go ponder depth 2", WAIT);
    CHECK(no_bestmove_for(&p, 300));
    pipe_process_send(&p, "ponderhit", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    /* ponder, then stop (the opponent played something else) */
    pipe_process_send(&p, "go ponder movetime 100", WAIT);
    CHECK(no_bestmove_for(&p, 300));
    pipe_process_send(&p, "stop", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    CHECK(error_reply(&p, "ponderhit", "no 'go ponder' search"));
    /* a perft count too long to wait for (Copenhagen, 8 plies) runs beside the reader: isready
       is answered, stop ends it with what it counted */
    CHECK(silent(&p, "position startpos"));
    pipe_process_send(&p, "perft 8", WAIT);
    CHECK(pipe_process_ask(&p, "isready", "readyok", NULL, 0, WAIT));
    CHECK(pipe_process_ask(&p, "stop", "perft 8: stopped after ", NULL, 0, WAIT));
    pipe_process_send(&p, "go perft 8", WAIT);
    CHECK(pipe_process_ask(&p, "position startpos moves d1d3", "perft 8: stopped after ", NULL, 0,
                           WAIT));
    CHECK(pipe_process_ask(&p, "perft 2", "perft 2: ", line, sizeof line, WAIT));
    CHECK(strstr(line, " nodes, ") != NULL); /* a short count finishes */
    /* a setoption refused during a search (a network file that does not load, a table size out
       of range) leaves the search running: stop still gets its bestmove */
    pipe_process_send(&p, "go infinite", WAIT);
    pipe_process_send(&p, "setoption name EvalFile value /nonexistent.nnue", WAIT);
    pipe_process_send(&p, "setoption name Hash value 0", WAIT);
    pipe_process_send(&p, "isready", WAIT);
    int refusals = 0;
    while (pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strcmp(line, "readyok")) {
        refusals += strncmp(line, "info string error: ", 19) == 0;
        CHECK(strncmp(line, "bestmove", 8) != 0);
    }
    CHECK_EQ_INT(refusals, 2);
    pipe_process_send(&p, "stop", WAIT);
    CHECK(legal_after("copenhagen", NULL, "d1d3", search_reply(&p, &infos, NULL)));
    /* a new position or go during a search stops it silently */
    pipe_process_send(&p, "go infinite", WAIT);
    pipe_process_send(&p, "position startpos", WAIT);
    pipe_process_send(&p, "isready", WAIT);
    bool best_seen = false;
    while (pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strcmp(line, "readyok"))
        best_seen |= strncmp(line, "bestmove", 8) == 0;
    CHECK(!best_seen && !strcmp(line, "readyok"));
    pipe_process_send(&p, "go infinite", WAIT);
    pipe_process_send(&p, "go depth 2", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
    CHECK(silent(&p, "isready"));
    /* quit during a search: bye, no bestmove, exit 0 */
    pipe_process_send(&p, "go infinite", WAIT);
    pipe_process_send(&p, "quit", WAIT);
    bool bye = false, bestmove = false;
    while (pipe_process_read_line(&p, line, sizeof line, WAIT) == 1) {
        bye |= strcmp(line, "bye") == 0;
        bestmove |= strncmp(line, "bestmove", 8) == 0;
    }
    CHECK(bye && !bestmove);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* End of input during a search: a bounded one finishes, an endless one stops; bestmove both. */
static void test_end_of_input(void) {
    const char *gos[] = {"go depth 3", "go infinite"};
    for (int i = 0; i < 2; i++) {
        struct pipe_process p;
        int infos;
        if (!CHECK(start(&p, "uci"))) return;
        pipe_process_send(&p, "position startpos", WAIT);
        pipe_process_send(&p, gos[i], WAIT);
        pipe_process_close_input(&p);
        CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, NULL)));
        CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    }
}

/* TaflZero's runner: uci, isready, then position fen ... moves, isready, go nodes, bestmove. */
static void test_taflzero_driver(void) {
    struct pipe_process p;
    int infos;
    char moves[512] = "", cmd[1024];
    if (!CHECK(start(&p, NULL))) return; /* hnefi with no command speaks UCI */
    CHECK(pipe_process_ask(&p, "uci", "uciok", NULL, 0, WAIT));
    CHECK(pipe_process_ask(&p, "isready", "readyok", NULL, 0, WAIT));
    for (int ply = 0; ply < 6; ply++) {
        snprintf(cmd, sizeof cmd, "position fen %s%s%s", START_FEN, *moves ? " moves " : "", moves);
        pipe_process_send(&p, cmd, WAIT);
        CHECK(pipe_process_ask(&p, "isready", "readyok", NULL, 0, WAIT));
        pipe_process_send(&p, "go nodes 2000", WAIT);
        const char *best = search_reply(&p, &infos, NULL);
        if (!CHECK(legal_after("copenhagen", START_FEN, moves, best))) break;
        CHECK(strchr(best, ' ') == NULL); /* bestmove <move> and nothing else */
        strcat(moves, *moves ? " " : "");
        strcat(moves, best);
    }
    CHECK(pipe_process_ask(&p, "quit", "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* Bad input of every kind: an error line, the position and options kept, the engine alive. */
static void test_bad_input(void) {
    struct pipe_process p;
    int infos, mpv;
    if (!CHECK(start(&p, "uci"))) return;
    CHECK(silent(&p, "setoption name MultiPV value 2"));
    CHECK(silent(&p, "position startpos moves d1d3"));
    char kept[256];
    snprintf(kept, sizeof kept, "%s", board_fen(&p));
    CHECK(strstr(kept, " d") != NULL);
    static const struct {
        const char *cmd, *want;
    } cases[] = {
        {"frobnicate", "unknown command 'frobnicate'"},
        {"position", "expected 'startpos' or 'fen"},
        {"position middlegame", "unknown word 'middlegame'"},
        {"position startpos d1d3", "expected 'moves'"},
        {"position startpos moves d1d3 e5e2 zz", "ply 3: move 'zz'"},
        {"position startpos moves d1d3 d1d2", "ply 2: move 'd1d2': no piece on d1"},
        {"position startpos moves d1d3 e5e2 k4k1", "ply 3"},
        {"position fen", "missing FEN"},
        {"position fen 11/11 a", "FEN"},
        {"position fen " START_FEN " x", "unexpected 'x'"},
        {"position fen 3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3",
         "missing side to move"},
        {"position fen 3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 "
         "attackers",
         "side to move 'attackers': expected a or d"},
        {"position fen 3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 x",
         "side to move 'x': expected a or d"},
        {"go depth", "'depth' needs a number"},
        {"go depth 0", "go depth '0'"},
        {"go depth x", "go depth 'x'"},
        {"go nodes -5", "go nodes '-5'"},
        {"go movetime 99999999999999999999999", "go movetime"},
        {"go sideways", "unknown word 'sideways'"},
        {"go searchmoves d1d3", "not supported"},
        {"go perft 99", "go perft '99'"},
        {"setoption", "expected 'setoption name"},
        {"setoption value 3", "expected 'setoption name"},
        {"setoption name value 3", "missing option name"},
        {"setoption name Hash value", "missing value"},
        {"setoption name Hash value lots", "value 'lots'"},
        {"setoption name Hash value 0", "value '0'"},
        {"setoption name Threads value 65", "value '65'"},
        {"setoption name MultiPV value 0", "value '0'"},
        {"setoption name MoveOverhead value -1", "value '-1'"},
        {"setoption name Variant value chess", "unknown variant 'chess'"},
        {"setoption name Rules value dim:13 start:/",
         HNEFI_WIDE_BOARDS ? "0 rows, expected 13" : "need hnefi's build of larger boards"},
        {"setoption name Rules value dim:21 start:/", "board size"},
        {"setoption name Rules", "missing value"},
        {"setoption name Ponder value maybe", "expected true or false"},
        {"setoption name Colour value red", "unknown option 'Colour'"},
        {"perft", "expected 'perft N'"},
        {"perft 0", "perft '0'"},
        {"perft many", "perft 'many'"},
        {"ponderhit", "no 'go ponder'"},
        {"\x01\x02\xff\xfe garbage", "unknown command '?"
                                     "?"
                                     "?"
                                     "?'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(error_reply(&p, cases[i].cmd, cases[i].want));
    /* a line with a NUL byte, a megabyte line, CR line ends */
    CHECK(pipe_process_write(&p, "isready\0 junk\n", 14, WAIT));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strstr(line, "NUL byte"));
    CHECK(pipe_process_send_long(&p, "position startpos moves ", 'x', 1 << 20, WAIT));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 &&
          strstr(line, "line of 1048576 bytes ignored"));
    CHECK(pipe_process_write(&p, "isready\r\n", 9, WAIT));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && !strcmp(line, "readyok"));
    /* all of it left the position and the options as they were */
    CHECK_EQ_STR(board_fen(&p), kept);
    pipe_process_send(&p, "go depth 2", WAIT);
    search_reply(&p, &infos, &mpv);
    CHECK_EQ_INT(mpv, 2);
    CHECK(pipe_process_ask(&p, "isready", "readyok", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* hnefi with no command switches to OpenTafl when the first line is a rules line. */
static void test_auto_opentafl(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL))) return;
    pipe_process_send(&p, "", WAIT);
    pipe_process_send(&p,
                      "rules dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: "
                      "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
                      WAIT);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && !strcmp(line, "hello"));
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/*
 * Runs hnefi with arguments (a NULL-terminated list, no input); checks its exit status and that
 * stderr/stdout has want.
 */
static void arguments_n(const char *const *args, int status, const char *want) {
    struct pipe_process p;
    char path[] = "/tmp/hnefi-proto-args-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0)) return;
    close(fd);
    char *argv[8] = {HNEFI_BINARY};
    for (int k = 0; k < 6 && args[k]; k++) argv[k + 1] = (char *)args[k];
    if (!CHECK(pipe_process_start(&p, argv, path))) return;
    char out[4096] = "", err[4096] = "";
    pipe_process_close_input(&p);
    for (size_t n = 0; pipe_process_read_line(&p, line, sizeof line, WAIT) == 1;)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s\n", line) % sizeof out;
    int st = pipe_process_wait(&p, WAIT);
    FILE *f = fopen(path, "r");
    if (f) {
        err[fread(err, 1, sizeof err - 1, f)] = 0;
        fclose(f);
    }
    unlink(path);
    if (!CHECK(st == status && (strstr(err, want) || strstr(out, want))))
        fprintf(stderr, "    hnefi %s %s %s: status %d, stdout '%s', stderr '%s'\n", args[0],
                args[1] ? args[1] : "", args[1] && args[2] ? args[2] : "", st, out, err);
}

/* Runs hnefi with up to three arguments (no input), as arguments_n. */
static void arguments(const char *a1, const char *a2, const char *a3, int status,
                      const char *want) {
    const char *args[] = {a1, a2, a2 ? a3 : NULL, NULL};
    arguments_n(args, status, want);
}

/*
 * Berserk over UCI: the Rules option loads it, a FEN may name the berserker after the side to
 * move, and the search moves only that piece (here to take the king between two commanders).
 */
static void test_berserk(void) {
    struct pipe_process p;
    int infos;
    if (!CHECK(start(&p, "uci"))) return;
    CHECK(silent(&p, "setoption name Rules value dim:11 name:Berserk surf:n atkf:n tfr:l kj:r "
                     "ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/"
                     "5c5/3ttttt3/"));
    CHECK(silent(&p, "position fen 11/11/11/11/11/2ck3c3/11/11/11/11/11 a h6"));
    CHECK_EQ_STR(board_fen(&p), "11/11/11/11/11/2ck3c3/11/11/11/11/11 a h6");
    pipe_process_send(&p, "go depth 2", WAIT);
    CHECK_EQ_STR(search_reply(&p, &infos, NULL), "h6e6");
    /* the opponent's berserk turn as moves: h9h6 takes g6, and h6 goes on */
    CHECK(silent(&p, "position fen 11/11/7c3/11/11/2ck2d4/11/11/11/11/11 a moves h9h6"));
    CHECK_EQ_STR(board_fen(&p), "11/11/11/11/11/2ck3c3/11/11/11/11/11 a h6");
    CHECK(error_reply(&p, "position fen 11/11/11/11/11/2ck3c3/11/11/11/11/11 a h6 moves c6c5",
                      "only the piece on h6 may move"));
    pipe_process_send(&p, "quit", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* The command-line arguments of hnefi uci, otep and htp. */
static void test_arguments(void) {
    arguments("uci", "--help", NULL, 0, "usage: hnefi uci");
    arguments("otep", "--help", NULL, 0, "usage: hnefi otep");
    arguments("htp", "--help", NULL, 0, "usage: hnefi htp");
    arguments("uci", "--depth", "3", 2, "--depth is for otep and htp");
    arguments("uci", "--move-overhead", "-1", 2, "--move-overhead '-1'");
    arguments("otep", "--move-overhead", "5001", 2, "--move-overhead '5001'");
    arguments("htp", "--move-overhead", NULL, 2, "needs a value");
    arguments("uci", "--variant", "chess", 2, "unknown variant 'chess'");
    arguments("uci", "--bogus", NULL, 2, "unknown argument '--bogus'");
    arguments("uci", "--hash", "0", 2, "--hash '0'");
    arguments("otep", "--threads", "0", 2, "--threads '0'");
    arguments("otep", "--movetime", NULL, 2, "needs a value");
    arguments("otep", "--nodes", "x", 2, "--nodes 'x'");
    arguments("otep", "--bogus", NULL, 2, "unknown argument '--bogus'");
    arguments("htp", "--depth", "999", 2, "--depth '999'");
    arguments("htp", "--bogus", NULL, 2, "unknown argument '--bogus'");
    arguments("htp", "--connect", "nohostport", 2, "expected HOST:PORT");
    arguments("htp", "--connect", "127.0.0.1:1", 1, "cannot connect: Connection refused");
    arguments("uci", "--eval", "fast", 2, "--eval 'fast': expected nnue or classic");
    arguments("otep", "--net", "/nonexistent.nnue", 1, "/nonexistent.nnue: cannot open");
    arguments("uci", "--book", "/nonexistent.zst", 1, "--book: cannot open /nonexistent.zst");
    /* alternatives given together are refused, naming both */
    arguments_n((const char *[]){"otep", "--book", "default", "--no-book", NULL}, 2,
                "--book and --no-book are alternatives");
    arguments_n((const char *[]){"htp", "--no-book", "--book", "default", NULL}, 2,
                "--book and --no-book are alternatives");
    arguments_n((const char *[]){"otep", "--depth", "3", "--nodes", "100", NULL}, 2,
                "--depth and --nodes are alternatives");
    arguments_n((const char *[]){"htp", "--movetime", "100", "--depth", "2", NULL}, 2,
                "--movetime and --depth are alternatives");
    arguments("htp", "--net", NULL, 2, "needs a value");
    arguments("uci", "--variant", "brandubh", 0, ""); /* no input: exits at once */
}

/* Runs hnefi CMD --help; true if the text has every word of want and none of refuse. */
static bool help_has(const char *cmd, const char *want, const char *refuse) {
    struct pipe_process p;
    char *argv[] = {HNEFI_BINARY, (char *)cmd, "--help", NULL};
    if (!pipe_process_start(&p, argv, NULL)) return false;
    char text[8192] = "";
    for (size_t n = 0; pipe_process_read_line(&p, line, sizeof line, WAIT) == 1;)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\n", line) % sizeof text;
    bool ok = pipe_process_wait(&p, WAIT) == 0;
    char words[256];
    snprintf(words, sizeof words, "%s %s", want, refuse);
    size_t nwant = strlen(want);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        bool wanted = (size_t)(w - words) < nwant, has = strstr(text, w) != NULL;
        if (has != wanted) {
            fprintf(stderr, "    hnefi %s --help %s %s\n", cmd, wanted ? "lacks" : "lists", w);
            ok = false;
        }
    }
    return ok;
}

/* Each protocol command's help lists the options it takes and no other. */
static void test_help_texts(void) {
    CHECK(help_has("uci", "--variant --hash --threads --move-overhead",
                   "--movetime --depth --nodes"));
    CHECK(help_has("otep", "--hash --threads --move-overhead --movetime --depth --nodes",
                   "--variant --server"));
    CHECK(help_has("htp",
                   "--server --connect --repeat-moves --hash --threads --move-overhead --movetime "
                   "--depth --nodes",
                   "--variant"));
}

/* Runs every UCI transcript. */
/*
 * Boards beyond 11x11 are played by the wide build: the session goes there and back as the
 * variant changes, keeping the options set before (MultiPV), and every move is one the engine
 * itself lists as legal.
 */
static void test_wide_boards(void) {
    struct pipe_process p;
    int infos, mpv;
    static char legal[1 << 15];
    if (!CHECK(start(&p, "uci"))) return;
#if !HNEFI_WIDE_BOARDS /* a program built without them says so, and plays on */
    CHECK(error_reply(&p, "setoption name Variant value copenhagen13",
                      "need hnefi's build of larger boards"));
    pipe_process_send(&p, "position startpos", WAIT);
    pipe_process_send(&p, "go depth 2", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, &mpv)));
    pipe_process_send(&p, "quit", WAIT);
    CHECK(pipe_process_expect(&p, "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    (void)legal;
    return;
#endif
    CHECK(silent(&p, "setoption name MultiPV value 5")); /* replaced by the next: 2 goes over */
    CHECK(silent(&p, "setoption name multipv value 2"));
    for (int round = 0; round < 2; round++) {
        CHECK(silent(&p, "setoption name Variant value copenhagen13"));
        CHECK(silent(&p, "position startpos moves g2l2"));
        CHECK(strncmp(board_fen(&p), "3aaaaaaa3/6a6/13/", 17) == 0);
        CHECK(pipe_process_ask(&p, "legal", "legal ", legal, sizeof legal, WAIT));
        pipe_process_send(&p, "go depth 2", WAIT);
        const char *best = search_reply(&p, &infos, &mpv);
        CHECK_EQ_INT(mpv, 2);
        char word[70];
        snprintf(word, sizeof word, " %s ", best);
        strcat(legal, " ");
        if (!CHECK(*best && strstr(legal, word)))
            fprintf(stderr, "    13x13 bestmove '%s' is not among: %.200s\n", best, legal);
        /* and back to a board of the 128-bit build */
        CHECK(silent(&p, "setoption name Variant value brandubh"));
        pipe_process_send(&p, "go depth 2", WAIT);
        CHECK(legal_after("brandubh", NULL, NULL, search_reply(&p, &infos, &mpv)));
        CHECK_EQ_INT(mpv, 2);
    }
    /* a rules string of a 15x15 board, then one of 11x11 */
    CHECK(silent(&p, "setoption name Rules value dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: "
                     "cens: cenh: start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/"
                     "ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/"));
    pipe_process_send(&p, "go depth 1", WAIT);
    CHECK(*search_reply(&p, &infos, &mpv));
    CHECK(silent(&p, "setoption name Variant value copenhagen"));
    pipe_process_send(&p, "go depth 1", WAIT);
    CHECK(legal_after("copenhagen", NULL, NULL, search_reply(&p, &infos, &mpv)));
    /* an unknown variant is refused where it is asked, and the session stays */
    CHECK(error_reply(&p, "setoption name Variant value copenhagen17", "unknown variant"));
    pipe_process_send(&p, "quit", WAIT);
    CHECK(pipe_process_expect(&p, "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    /* `hnefi uci --variant copenhagen13` starts on the wide build, and can leave it */
    char *argv[] = {HNEFI_BINARY, "uci", "--variant", "copenhagen13", NULL};
    if (!CHECK(pipe_process_start(&p, argv, NULL))) return;
    CHECK(pipe_process_ask(&p, "legal", "legal ", legal, sizeof legal, WAIT));
    pipe_process_send(&p, "go depth 1", WAIT);
    char word[70];
    snprintf(word, sizeof word, " %s ", search_reply(&p, &infos, &mpv));
    strcat(legal, " ");
    CHECK(strlen(word) > 2 && strstr(legal, word));
    CHECK(strstr(legal, " g2l2 ")); /* a move of the 13x13 start */
    CHECK(silent(&p, "setoption name Variant value brandubh"));
    pipe_process_send(&p, "go depth 1", WAIT);
    CHECK(legal_after("brandubh", NULL, NULL, search_reply(&p, &infos, &mpv)));
    pipe_process_send(&p, "quit", WAIT);
    CHECK(pipe_process_expect(&p, "bye", NULL, 0, WAIT));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

int main(void) {
    test_berserk();
    test_wide_boards();
    test_arguments();
    test_help_texts();
    test_handshake();
    test_command_line_options();
    test_searches();
    test_eval_options();
    test_held_searches();
    test_end_of_input();
    test_taflzero_driver();
    test_bad_input();
    test_auto_opentafl();
    return check_done();
}
