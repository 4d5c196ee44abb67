/*
 * The UCI-like protocol (docs/protocol.md): a superset of TaflZero's dialect. The main thread
 * reads and answers commands; searches run on the session's search thread and print their
 * `info` and `bestmove` lines from there, so `stop`, `isready` and `quit` are answered at once.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bench/perft.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "tools/cli.h"
#include "tools/cli_book.h"
#include "tools/proto_session.h"

enum { UCI_MULTIPV_MAX = 1000, UCI_PERFT_MAX = 8 };

struct uci {
    struct proto_session *s;
    char default_variant[VARIANT_NAME_MAX];
    long default_hash; /* the options as the command line set them: what `uci` calls default */
    int default_threads, default_overhead;
    char default_book[4096]; /* the BookFile default: the command line's --book, or <default> */
    bool default_own;        /* the OwnBook default */
    int default_book_depth;
    enum book_variety default_variety;
    long default_seed;
    bool default_classic;      /* the command line chose the classical evaluation */
    char default_net[256];     /* the network file the command line named, or "" */
    atomic_bool ponder_option; /* the Ponder option: bestmove names a ponder move (read by the
                                  search thread's report, set by the reader at any time) */
    bool pondering;            /* a `go ponder` search waits for ponderhit */
    struct search_limits ponder_limits;
    bool ponder_hold;
    /* a perft count runs on a thread of its own, so that stop, isready and quit are answered */
    pthread_t perft_thread;
    bool perft_live;
    atomic_bool perft_stop;
    struct position perft_pos;
    int perft_depth;
};

/* Prints an error line: `info string error: <message>`, unprintable bytes shown as '?'. */
__attribute__((format(printf, 1, 2))) static void uci_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proto_out_message("info string error: ", fmt, ap);
    va_end(ap);
}

/* Maps a score to a winning chance in percent (a logistic curve, 400 centi-men per factor 10). */
static double winrate(int score) {
    int plies;
    if (score_is_win(score, &plies)) return score > 0 ? 100.0 : 0.0;
    return 100.0 / (1.0 + pow(10.0, -score / 400.0));
}

/* Prints one `info` line for a finished iteration. */
static void uci_on_line(const struct search_line *l, void *ctx) {
    struct uci *u = ctx;
    char pv[PROTO_PV_TEXT_MAX], score[64];
    int plies;
    proto_pv_text(l, u->s->variant.size, false, ' ', pv, sizeof pv);
    if (score_is_win(l->score, &plies))
        snprintf(score, sizeof score, "cp %d %s %d", l->score, l->score > 0 ? "win" : "loss",
                 plies);
    else
        snprintf(score, sizeof score, "cp %d", l->score);
    proto_out("info depth %d seldepth %d multipv %d score %s winrate %.1f%% nodes %llu nps %llu "
              "speed %llu hashfull %d time %lld pv %s",
              l->depth, l->seldepth, l->multipv, score, winrate(l->score),
              (unsigned long long)l->nodes, (unsigned long long)l->nps, (unsigned long long)l->nps,
              l->hashfull, (long long)l->time_ms, pv);
}

/* Prints `bestmove` (with a ponder move when the Ponder option is on). */
static void uci_on_done(const struct search_result *r, void *ctx) {
    struct uci *u = ctx;
    char best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    int size = u->s->variant.size;
    if (!r->best) {
        const struct tafl_game *g = u->s->search_game;
        char st[96];
        if (g->result != RESULT_NONE)
            proto_out("info string the game is over: %s",
                      tafl_status_text(g->result, g->reason, st, sizeof st));
        proto_out("bestmove (none)");
        return;
    }
    move_write(r->best, size, best);
    if (atomic_load_explicit(&u->ponder_option, memory_order_relaxed) && r->ponder) {
        move_write(r->ponder, size, ponder);
        proto_out("bestmove %s ponder %s", best, ponder);
    } else {
        proto_out("bestmove %s", best);
    }
}

/* Says which book move is played and what the book knows of it. */
static void uci_on_book(move_t m, const struct book_move *info, void *ctx) {
    struct uci *u = ctx;
    char mv[MOVE_TEXT_MAX], score[48], depth[24] = "";
    move_write(m, u->s->variant.size, mv);
    cli_book_score_text(info, score, sizeof score);
    if (info->depth) snprintf(depth, sizeof depth, " (depth %u)", info->depth);
    proto_out("info string book move %s: %u games (attackers won %u, defenders %u, draws %u), "
              "score %s%s, weight %u",
              mv, info->games, info->attacker_wins, info->defender_wins, info->draws, score, depth,
              info->weight);
}

/* uci: names the engine and its options. */
static void cmd_uci_hello(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    char combo[256] = "";
    for (int i = 0; variant_builtin(i); i++) {
        strcat(combo, " var ");
        strcat(combo, variant_builtin(i)->name);
    }
    /* the wide build's own variants, when the program has it (PROTO_SWITCH goes there) */
    for (int i = 0; !HNEFI_WIDE && hnefi_shared_handoff.rules_ok[1] && variant_wide_only_name(i);
         i++) {
        strcat(combo, " var ");
        strcat(combo, variant_wide_only_name(i));
    }
    proto_out("id name %s %s", PROTO_ENGINE_NAME, PROTO_ENGINE_VERSION);
    proto_out("id author %s", PROTO_ENGINE_AUTHOR);
    proto_out("option name Variant type combo default %s%s", u->default_variant, combo);
    proto_out("option name Rules type string default <empty>");
    proto_out("option name Hash type spin default %ld min 1 max %d", u->default_hash,
              PROTO_HASH_MAX);
    proto_out("option name Threads type spin default %d min 1 max %d", u->default_threads,
              SEARCH_MAX_THREADS);
    proto_out("option name MultiPV type spin default 1 min 1 max %d", UCI_MULTIPV_MAX);
    proto_out("option name MoveOverhead type spin default %d min 0 max %d", u->default_overhead,
              PROTO_OVERHEAD_MAX);
    proto_out("option name Ponder type check default false");
    proto_out("option name OwnBook type check default %s", u->default_own ? "true" : "false");
    proto_out("option name BookFile type string default %s", u->default_book);
    proto_out("option name BookDepth type spin default %d min 0 max %d", u->default_book_depth,
              MAX_GAME_PLIES);
    proto_out("option name BookVariety type combo default %s var best var weighted",
              u->default_variety == BOOK_WEIGHTED ? "weighted" : "best");
    proto_out("option name BookSeed type spin default %ld min 0 max 2147483647", u->default_seed);
    proto_out("option name Clear Hash type button");
    proto_out("option name Eval type combo default %s var nnue var classic",
              u->default_classic ? "classic" : "nnue");
    proto_out("option name EvalFile type string default %s",
              u->default_net[0] ? u->default_net : "<builtin>");
    proto_out("uciok");
}

/* isready: answered at once, also during a search. */
static void cmd_isready(struct uci *u, int n, char **w) {
    (void)u;
    (void)n;
    (void)w;
    proto_out("readyok");
}

/* ucinewgame: stops a search silently, clears the table, back to the start position. */
static void cmd_ucinewgame(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    char err[200];
    proto_session_stop(u->s, false);
    u->pondering = false;
    search_clear(u->s->search);
    proto_session_set_position(u->s, NULL, NULL, 0, err, sizeof err);
}

/* Joins words[from..to) with single spaces into out. */
static void join_words(char **w, int from, int to, char *out, size_t len) {
    size_t k = 0;
    out[0] = 0;
    for (int i = from; i < to && k + 1 < len; i++) {
        int m = snprintf(out + k, len - k, "%s%s", i > from ? " " : "", w[i]);
        if (m < 0) break;
        k += (size_t)m;
        if (k >= len) k = len - 1;
    }
}

/* Reads a spin option's value in [lo, hi]; prints an error and returns false if it is not one. */
static bool spin_value(const char *name, const char *value, int64_t lo, int64_t hi, int64_t *out) {
    char q[64];
    if (!*value) {
        uci_error("setoption %s: missing value (a whole number from %lld to %lld)", name,
                  (long long)lo, (long long)hi);
        return false;
    }
    if (!proto_parse_i64(value, lo, hi, out)) {
        uci_error("setoption %s: value '%s': expected a whole number from %lld to %lld", name,
                  proto_quote(value, q, sizeof q), (long long)lo, (long long)hi);
        return false;
    }
    return true;
}

/* Applies a new variant: stops any search, clears the table, restarts from its start. */
static void set_variant(struct uci *u, const struct variant *v) {
    proto_session_set_variant(u->s, v);
    u->pondering = false;
    search_clear(u->s->search);
}

/* Hands the session to the other build with `setoption name NAME value VALUE` (PROTO_SWITCH):
   a running search reports its move first, as a GUI expects of any change of rules. */
static void switch_build(struct uci *u, const char *name, const char *value) {
    char line[PROTO_LINE_MAX];
    snprintf(line, sizeof line, "setoption name %s value %s", name, value);
    proto_session_stop(u->s, true);
    proto_session_switch(u->s, line);
}

/* Sets option name to value; false (after an error line) if it was not set. */
static bool apply_option(struct uci *u, const char *name, const char *value) {
    char q[64];
    int64_t v;
    struct proto_session *s = u->s;
    if (strcasecmp(name, "Variant") == 0) {
        const struct variant *var = variant_by_name(value);
        char err[200];
        if (proto_other_build(var ? var->size : variant_wide_only(value), NULL, err, sizeof err)) {
            switch_build(u, name, value); /* a board the other build plays */
            return true;
        }
        if (err[0]) {
            uci_error("setoption Variant: %s", err);
            return false;
        }
        if (!var) {
            char names[200];
            variant_names(names, sizeof names);
            uci_error("setoption Variant: unknown variant '%s' (%s)",
                      proto_quote(value, q, sizeof q), names);
            return false;
        }
        set_variant(u, var);
    } else if (strcasecmp(name, "Rules") == 0) {
        struct variant var;
        char err[256];
        if (!*value) {
            uci_error("setoption Rules: missing value (an OpenTafl rules string)");
            return false;
        }
        if (proto_other_build(opentafl_rules_dim(value), value, err, sizeof err)) {
            switch_build(u, name, value);
            return true;
        }
        if (err[0]) {
            uci_error("setoption Rules: %s", err);
            return false;
        }
        if (!opentafl_read_rules(&var, value, err, sizeof err)) {
            uci_error("setoption Rules: %s", err);
            return false;
        }
        set_variant(u, &var);
    } else if (strcasecmp(name, "Hash") == 0) {
        if (!spin_value("Hash", value, 1, PROTO_HASH_MAX, &v)) return false;
        if (!proto_session_set_hash(s, (long)v)) {
            uci_error("setoption Hash: out of memory for %lld MiB; the table stays at %ld MiB",
                      (long long)v, s->hash_mib);
            return false;
        }
    } else if (strcasecmp(name, "Threads") == 0) {
        if (!spin_value("Threads", value, 1, SEARCH_MAX_THREADS, &v)) return false;
        proto_session_stop(s, false);
        s->opt.threads = (int)v;
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (!spin_value("MultiPV", value, 1, UCI_MULTIPV_MAX, &v)) return false;
        proto_session_stop(s, false);
        s->opt.multipv = v > SEARCH_MAX_MULTIPV ? SEARCH_MAX_MULTIPV : (int)v;
        if (v > SEARCH_MAX_MULTIPV)
            proto_out("info string MultiPV %lld: hnefi reports at most %d lines", (long long)v,
                      SEARCH_MAX_MULTIPV);
    } else if (strcasecmp(name, "MoveOverhead") == 0 || strcasecmp(name, "Move Overhead") == 0) {
        if (!spin_value("MoveOverhead", value, 0, PROTO_OVERHEAD_MAX, &v)) return false;
        proto_session_stop(s, false);
        s->opt.move_overhead_ms = (int)v;
    } else if (strcasecmp(name, "Ponder") == 0) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
            uci_error("setoption Ponder: value '%s': expected true or false",
                      proto_quote(value, q, sizeof q));
            return false;
        }
        atomic_store_explicit(&u->ponder_option, strcmp(value, "true") == 0, memory_order_relaxed);
    } else if (strcasecmp(name, "OwnBook") == 0) {
        char err[800];
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
            uci_error("setoption OwnBook: value '%s': expected true or false",
                      proto_quote(value, q, sizeof q));
            return false;
        }
        if (!proto_session_own_book(s, strcmp(value, "true") == 0 ? 1 : 0, err, sizeof err)) {
            uci_error("setoption OwnBook: %s", err);
            return false;
        }
    } else if (strcasecmp(name, "BookFile") == 0) {
        char err[800];
        bool shipped = !*value || strcmp(value, "<default>") == 0 || strcmp(value, "<empty>") == 0;
        if (!proto_session_set_book(s, shipped ? "default" : value, err, sizeof err)) {
            uci_error("setoption BookFile: %s", err);
            return false;
        }
    } else if (strcasecmp(name, "BookDepth") == 0) {
        if (!spin_value("BookDepth", value, 0, MAX_GAME_PLIES, &v)) return false;
        s->bk.play.max_ply = (int)v;
    } else if (strcasecmp(name, "BookVariety") == 0) {
        enum book_variety var;
        if (!cli_book_variety(value, &var)) {
            uci_error("setoption BookVariety: value '%s': expected best or weighted",
                      proto_quote(value, q, sizeof q));
            return false;
        }
        s->bk.play.variety = var;
    } else if (strcasecmp(name, "BookSeed") == 0) {
        if (!spin_value("BookSeed", value, 0, 2147483647, &v)) return false;
        proto_session_book_seed(s, (uint64_t)v);
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        proto_session_stop(s, false);
        search_clear(s->search);
    } else if (strcasecmp(name, "Eval") == 0) {
        struct cli_eval probe = {0};
        if (!cli_eval_set_kind(&probe, value)) {
            uci_error("setoption Eval: value '%s': expected nnue or classic",
                      proto_quote(value, q, sizeof q));
            return false;
        }
        proto_session_stop(s, false);
        cli_eval_set_kind(&s->eval, value);
    } else if (strcasecmp(name, "EvalFile") == 0 || strcasecmp(name, "NNFile") == 0) {
        /* NNFile is TaflZero's name; a file that is no hnefi network is refused the same way */
        char err[400];
        bool builtin = !*value || strcmp(value, "<builtin>") == 0 || strcmp(value, "<empty>") == 0;
        if (!proto_session_set_net(s, builtin ? NULL : value, err, sizeof err)) {
            uci_error("setoption %s: %s; the evaluation stays as it was", name, err);
            return false;
        }
    } else {
        uci_error("setoption: unknown option '%s' (Variant, Rules, Hash, Threads, MultiPV, "
                  "MoveOverhead, Ponder, OwnBook, BookFile, BookDepth, BookVariety, BookSeed, "
                  "Clear Hash, Eval, EvalFile)",
                  proto_quote(name, q, sizeof q));
        return false;
    }
    return true;
}

/* setoption name <name> [value <value>]: every option of `uci`, and TaflZero's NNFile. An option
   that took effect (not Variant or Rules, which restart the game, nor Clear Hash) is recorded for
   the other build, should the session move there (PROTO_SWITCH). */
static void cmd_setoption(struct uci *u, int n, char **w) {
    char name[128], value[PROTO_LINE_MAX / 2];
    int vi = n;
    if (n < 3 || strcmp(w[1], "name") != 0) {
        uci_error("setoption: expected 'setoption name <name> [value <value>]'");
        return;
    }
    for (int i = 2; i < n; i++)
        if (strcmp(w[i], "value") == 0) {
            vi = i;
            break;
        }
    if (vi == 2) {
        uci_error("setoption: missing option name before 'value'");
        return;
    }
    join_words(w, 2, vi, name, sizeof name);
    join_words(w, vi + 1, n, value, sizeof value);
    if (apply_option(u, name, value) && strcasecmp(name, "Variant") != 0 &&
        strcasecmp(name, "Rules") != 0 && strcasecmp(name, "Clear Hash") != 0) {
        char line[PROTO_LINE_MAX];
        snprintf(line, sizeof line, "setoption name %s value %s", name, value);
        proto_session_log_option(u->s, line);
    }
}

/* position startpos|fen <rows> <side> [moves m1 m2 ...]: all or nothing. */
static void cmd_position(struct uci *u, int n, char **w) {
    char fen[FEN_MAX + 16], err[300], q[64];
    const char *fenp = NULL;
    int i;
    if (n < 2) {
        uci_error("position: expected 'startpos' or 'fen <rows> <side>', then optionally 'moves'");
        return;
    }
    if (strcmp(w[1], "startpos") == 0) {
        i = 2;
    } else if (strcmp(w[1], "fen") == 0) {
        if (n < 3 || strcmp(w[2], "moves") == 0) {
            char start[FEN_MAX];
            fen_write_start(&u->s->variant, start);
            uci_error("position fen: missing FEN (rows and side to move, as '%s')", start);
            return;
        }
        bool side = n > 3 && strcmp(w[3], "moves") != 0;
        if (strlen(w[2]) > FEN_MAX) {
            uci_error("position fen '%s': too long for a FEN", proto_quote(w[2], q, sizeof q));
            return;
        }
        if (side && strlen(w[3]) > 4) {
            uci_error("position: FEN: side to move '%s': expected a or d",
                      proto_quote(w[3], q, sizeof q));
            return;
        }
        /* a berserk turn going on: the berserker's square after the side to move */
        bool berserker = side && n > 4 && strcmp(w[4], "moves") != 0 && strlen(w[4]) <= 3 &&
                         u->s->variant.berserk != BERSERK_NONE;
        snprintf(fen, sizeof fen, "%s%s%s%s%s", w[2], side ? " " : "", side ? w[3] : "",
                 berserker ? " " : "", berserker ? w[4] : "");
        fenp = fen;
        i = berserker ? 5 : side ? 4 : 3;
    } else {
        uci_error("position: unknown word '%s' (expected startpos or fen)",
                  proto_quote(w[1], q, sizeof q));
        return;
    }
    if (i < n && strcmp(w[i], "moves") != 0) {
        uci_error("position: unexpected '%s' (expected 'moves' after the position)",
                  proto_quote(w[i], q, sizeof q));
        return;
    }
    char **moves = i < n ? w + i + 1 : NULL;
    int nmoves = i < n ? n - i - 1 : 0;
    if (!proto_session_set_position(u->s, fenp, moves, nmoves, err, sizeof err)) {
        uci_error("position %s: %s", fenp ? "fen" : "startpos", err);
        return;
    }
    /* the new position is in place; a search still running was for the old one */
    proto_session_stop(u->s, false);
    u->pondering = false;
}

/* The perft thread: counts, then prints the count (or how far it got when stopped). */
static void *perft_main(void *arg) {
    struct uci *u = arg;
    struct timespec a, b;
    bool stopped = false;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t nodes = perft_stoppable(&u->perft_pos, u->perft_depth, &u->perft_stop, &stopped);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double dt = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    if (stopped)
        proto_out("perft %d: stopped after %.3f s (%llu nodes counted)", u->perft_depth, dt,
                  (unsigned long long)nodes);
    else
        proto_out("perft %d: %llu nodes, %.3f s, %.0f nodes/s", u->perft_depth,
                  (unsigned long long)nodes, dt, dt > 0 ? (double)nodes / dt : 0.0);
    return NULL;
}

/* Waits for a perft count to end, stopping it first if stop is true. */
static void perft_end(struct uci *u, bool stop) {
    if (!u->perft_live) return;
    if (stop) atomic_store(&u->perft_stop, true);
    pthread_join(u->perft_thread, NULL);
    u->perft_live = false;
}

/* Starts perft on the current position on its own thread; its count is printed when done. */
static void run_perft(struct uci *u, int depth) {
    perft_end(u, true);
    proto_session_stop(u->s, false); /* as any go: a running search ends silently */
    u->perft_pos = *tafl_pos(u->s->game);
    u->perft_depth = proto_session_perft_depth(u->s, depth);
    atomic_store(&u->perft_stop, false);
    if (pthread_create(&u->perft_thread, NULL, perft_main, u) != 0) {
        uci_error("perft: cannot start a thread");
        return;
    }
    u->perft_live = true;
}

/* A numeric word of `go`: where its value goes and its range. */
struct go_word {
    const char *name;
    int64_t lo, hi;
    int64_t *dst;
};

/* go [wtime/btime/winc/binc/atime/dtime/ainc/dinc/movestogo/movetime/depth/nodes N] [infinite]
 * [ponder] [perft N]: starts a search (or perft). */
static void cmd_go(struct uci *u, int n, char **w) {
    enum { NUM_WORDS = 13 };
    int64_t val[NUM_WORDS];
    bool given[NUM_WORDS] = {false};
    const int64_t big = 1000000000000LL;
    const struct go_word words[NUM_WORDS] = {
        {"wtime", -big, big, &val[0]},
        {"btime", -big, big, &val[1]},
        {"atime", -big, big, &val[2]},
        {"dtime", -big, big, &val[3]},
        {"winc", 0, 1000000000, &val[4]},
        {"binc", 0, 1000000000, &val[5]},
        {"ainc", 0, 1000000000, &val[6]},
        {"dinc", 0, 1000000000, &val[7]},
        {"movestogo", 1, 10000, &val[8]},
        {"movetime", 1, 1000000000, &val[9]},
        {"depth", 1, SEARCH_MAX_PLY - 8, &val[10]},
        {"nodes", 1, 1000000000000000LL, &val[11]},
        {"perft", 1, UCI_PERFT_MAX, &val[12]},
    };
    bool infinite = false, ponder = false;
    char q[64], q2[64];
    for (int i = 1; i < n; i++) {
        if (strcmp(w[i], "infinite") == 0) {
            infinite = true;
            continue;
        }
        if (strcmp(w[i], "ponder") == 0) {
            ponder = true;
            continue;
        }
        if (strcmp(w[i], "searchmoves") == 0 || strcmp(w[i], "mate") == 0) {
            uci_error("go: '%s' is not supported", w[i]);
            return;
        }
        int k = 0;
        while (k < NUM_WORDS && strcmp(w[i], words[k].name) != 0) k++;
        if (k == NUM_WORDS) {
            uci_error("go: unknown word '%s'", proto_quote(w[i], q, sizeof q));
            return;
        }
        if (i + 1 >= n) {
            uci_error("go: '%s' needs a number", words[k].name);
            return;
        }
        if (!proto_parse_i64(w[i + 1], words[k].lo, words[k].hi, words[k].dst)) {
            uci_error("go %s '%s': expected a whole number from %lld to %lld", words[k].name,
                      proto_quote(w[i + 1], q2, sizeof q2), (long long)words[k].lo,
                      (long long)words[k].hi);
            return;
        }
        given[k] = true;
        i++;
    }
    if (given[12]) {
        run_perft(u, (int)val[12]);
        return;
    }
    /* clocks: white = defenders, black = attackers; atime/dtime name the sides directly */
    struct search_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms[0] = lim.time_ms[1] = -1;
    static const int time_side[4] = {SIDE_DEFENDERS, SIDE_ATTACKERS, SIDE_ATTACKERS,
                                     SIDE_DEFENDERS};
    bool clock = false;
    for (int k = 0; k < 4; k++) {
        if (given[k]) {
            lim.time_ms[time_side[k]] = val[k] < 1 ? 1 : val[k];
            clock = true;
        }
        if (given[k + 4]) {
            lim.inc_ms[time_side[k]] = val[k + 4];
            clock = true;
        }
    }
    int side = tafl_pos(u->s->game)->side;
    if (clock && lim.time_ms[side] < 0) {
        uci_error("go: a clock was given but not the one of the side to move (%s: %s)",
                  side == SIDE_ATTACKERS ? "attackers" : "defenders",
                  side == SIDE_ATTACKERS ? "atime or btime" : "dtime or wtime");
        return;
    }
    if (given[8]) lim.movestogo = (int)val[8];
    if (given[9]) lim.movetime_ms = val[9];
    if (given[10]) lim.depth = (int)val[10];
    if (given[11]) lim.nodes = (uint64_t)val[11];
    /* a bare `go` searches until `stop`, like `go infinite` */
    if (!clock && !given[9] && !given[10] && !given[11]) infinite = true;
    lim.infinite = infinite;
    struct proto_hooks hooks = {
        .on_line = uci_on_line, .on_done = uci_on_done, .on_book = uci_on_book, .ctx = u};
    if (!ponder && !infinite && proto_session_play_book(u->s, &hooks)) {
        u->pondering = false;
        return;
    }
    u->pondering = ponder;
    if (ponder) {
        u->ponder_limits = lim;
        u->ponder_hold = infinite;
        struct search_limits pl = lim;
        pl.infinite = true;
        proto_session_go(u->s, &pl, true, &hooks);
    } else {
        proto_session_go(u->s, &lim, infinite, &hooks);
    }
}

/* stop: ends a search; its bestmove follows. No reply when nothing is searching. */
static void cmd_stop(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    u->pondering = false;
    if (proto_session_busy(u->s)) proto_session_stop(u->s, true);
}

/* ponderhit: the predicted move was played; the ponder search becomes a normal one. */
static void cmd_ponderhit(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    if (!u->pondering) {
        uci_error("ponderhit: no 'go ponder' search is running");
        return;
    }
    u->pondering = false;
    if (u->ponder_hold) return; /* `go ponder infinite`: it goes on until stop */
    enum proto_search_state st = proto_session_state(u->s);
    if (st == PROTO_HELD) {
        proto_session_release(u->s); /* it already searched as deep as it can */
    } else if (st == PROTO_RUNNING) {
        /* search again with the real limits; the table keeps what pondering found */
        struct proto_hooks hooks = {.on_line = uci_on_line, .on_done = uci_on_done, .ctx = u};
        proto_session_go(u->s, &u->ponder_limits, false, &hooks);
    }
}

/* d (or board): the board, FEN, side to move and status. */
static void cmd_board(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    const struct tafl_game *g = u->s->game;
    const struct position *p = tafl_pos(g);
    char fen[FEN_MAX], st[96];
    fen_write(p, fen);
    char *board = proto_board_text(p);
    proto_out("%sfen %s\nvariant %s, %s to move, %d plies played, %s", board ? board : "", fen,
              u->s->variant.name, p->side == SIDE_ATTACKERS ? "attackers" : "defenders", g->n,
              tafl_status_text(g->result, g->reason, st, sizeof st));
    free(board);
}

/* perft N: counts the positions N plies ahead (blocks the reader until done). */
static void cmd_perft_uci(struct uci *u, int n, char **w) {
    int64_t d;
    char q[64];
    if (n != 2) {
        uci_error("perft: expected 'perft N' with N from 1 to %d", UCI_PERFT_MAX);
        return;
    }
    if (!proto_parse_i64(w[1], 1, UCI_PERFT_MAX, &d)) {
        uci_error("perft '%s': expected a whole number from 1 to %d",
                  proto_quote(w[1], q, sizeof q), UCI_PERFT_MAX);
        return;
    }
    run_perft(u, (int)d);
}

/* eval: the static evaluation from the side to move's point of view. */
static void cmd_eval(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    const struct position *p = tafl_pos(u->s->game);
    struct search_options opt = u->s->opt;
    char what[400];
    opt.net = cli_eval_net(&u->s->eval, &u->s->variant);
    proto_out("eval %d (centi-men, for the side to move: %s; %s)", search_evaluate(&opt, p),
              p->side == SIDE_ATTACKERS ? "attackers" : "defenders",
              cli_eval_describe(&u->s->eval, &u->s->variant, what, sizeof what));
}

/* legal: the number of legal moves and the moves. */
static void cmd_legal(struct uci *u, int n, char **w) {
    (void)n;
    (void)w;
    move_t moves[MAX_MOVES];
    int k = tafl_legal_moves(u->s->game, moves);
    char text[MAX_MOVES * 8 + 32];
    size_t len = (size_t)sprintf(text, "legal %d", k);
    for (int i = 0; i < k; i++) {
        text[len++] = ' ';
        len += (size_t)move_write(moves[i], u->s->variant.size, text + len);
    }
    proto_out("%s", text);
}

/* debug on|off: accepted, no effect. */
static void cmd_debug(struct uci *u, int n, char **w) {
    (void)u;
    (void)n;
    (void)w;
}

static void cmd_help(struct uci *u, int n, char **w);

/* One command: its name and handler. */
struct uci_command {
    const char *name;
    void (*run)(struct uci *u, int n, char **w);
};

static const struct uci_command uci_commands[] = {
    {"uci", cmd_uci_hello},       {"isready", cmd_isready},     {"ucinewgame", cmd_ucinewgame},
    {"setoption", cmd_setoption}, {"position", cmd_position},   {"go", cmd_go},
    {"stop", cmd_stop},           {"ponderhit", cmd_ponderhit}, {"d", cmd_board},
    {"board", cmd_board},         {"perft", cmd_perft_uci},     {"eval", cmd_eval},
    {"legal", cmd_legal},         {"debug", cmd_debug},         {"help", cmd_help},
};

/* help: the command list. */
static void cmd_help(struct uci *u, int n, char **w) {
    (void)u;
    (void)n;
    (void)w;
    char text[512] = "commands:";
    for (size_t i = 0; i < sizeof uci_commands / sizeof uci_commands[0]; i++) {
        strcat(text, " ");
        strcat(text, uci_commands[i].name);
    }
    proto_out("info string %s quit (docs/protocol.md)", text);
}

/* Handles one line; returns false on quit. */
static bool uci_line(struct uci *u, struct proto_line *line) {
    char q[64];
    if (line->overlong) {
        uci_error("line of %zu bytes ignored: longer than %d bytes", line->full_len,
                  PROTO_LINE_MAX - 1);
        return true;
    }
    if (line->has_nul) {
        uci_error("line ignored: it holds a NUL byte");
        return true;
    }
    char **w = u->s->words;
    int n = proto_split(line->text, w, PROTO_MAX_TOKENS);
    if (n < 0) {
        uci_error("line ignored: more than %d words", PROTO_MAX_TOKENS);
        return true;
    }
    if (n == 0) return true;
    /* a perft count ends at any command but isready (its position and rules stay as they are
       meanwhile); stop ends it and nothing else */
    if (strcmp(w[0], "isready") != 0) perft_end(u, true);
    if (strcmp(w[0], "quit") == 0) return false;
    for (size_t i = 0; i < sizeof uci_commands / sizeof uci_commands[0]; i++)
        if (strcmp(w[0], uci_commands[i].name) == 0) {
            uci_commands[i].run(u, n, w);
            return true;
        }
    uci_error("unknown command '%s' (try help)", proto_quote(w[0], q, sizeof q));
    return true;
}

/* Runs the UCI loop (see proto_loop). */
int proto_uci_loop(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                   bool have, const struct proto_config *cfg) {
    (void)cfg;
    struct uci *u = calloc(1, sizeof *u);
    if (!u) return 1;
    u->s = s;
    snprintf(u->default_variant, sizeof u->default_variant, "%s", s->variant.name);
    u->default_hash = s->hash_mib;
    u->default_threads = s->opt.threads;
    u->default_overhead = s->opt.move_overhead_ms;
    const struct cli_book_default *d = cli_book_default_of(&s->variant);
    u->default_own = s->bk.own == 1 || (s->bk.own == -1 && d && d->on);
    snprintf(u->default_book, sizeof u->default_book, "%s",
             s->bk.own == 1 && strcmp(s->bk.name, "default") != 0 ? s->bk.name : "<default>");
    u->default_book_depth = s->bk.play.max_ply;
    u->default_variety = s->bk.play.variety;
    u->default_seed = (long)s->bk.seed;
    if (s->startup_note[0] && !s->continued) uci_error("%s", s->startup_note);
    u->default_classic = s->eval.classic;
    snprintf(u->default_net, sizeof u->default_net, "%s", s->eval.have_net ? s->eval.net_path : "");
    bool quit = have && !uci_line(u, line);
    while (!quit && !s->switch_line && proto_read_line(r, line)) quit = !uci_line(u, line);
    perft_end(u, quit || s->switch_line); /* at the end of input a count finishes, as a search */
    if (s->switch_line) {                 /* the other build goes on (PROTO_SWITCH) */
        free(u);
        return PROTO_SWITCH;
    }
    if (quit) {
        proto_session_stop(s, false);
        proto_out("bye");
    } else if (proto_session_busy(s)) {
        /* end of input: a bounded search finishes, an endless one stops; bestmove either way */
        proto_session_wait(s);
    }
    proto_session_stop(s, false);
    free(u);
    return 0;
}

/* The arguments only hnefi uci takes: --variant; the otep/htp thinking options are refused. */
static int uci_extra(int argc, char **argv, int *i, struct proto_config *cfg) {
    const char *a = argv[*i];
    if (!strcmp(a, "--movetime") || !strcmp(a, "--depth") || !strcmp(a, "--nodes")) {
        fprintf(stderr, "hnefi uci: %s is for otep and htp; in UCI the GUI's go sets it\n", a);
        return -1;
    }
    if (strcmp(a, "--variant") != 0) return 0;
    if (*i + 1 < argc && proto_continuing()) { /* the session's own variant comes with it */
        ++*i;
        return 1;
    }
    if (*i + 1 >= argc || !(cfg->variant = variant_by_name(argv[*i + 1]))) {
        fprintf(stderr, "hnefi uci: --variant: unknown variant '%s'\n",
                *i + 1 < argc ? argv[*i + 1] : "");
        return -1;
    }
    ++*i;
    return 1;
}

/* hnefi uci: the UCI-like protocol. */
int cmd_uci(int argc, char **argv) {
    struct proto_config cfg;
    proto_config_default(&cfg);
    int rc =
        proto_args(argc, argv, &cfg,
                   "usage: hnefi uci [options]\n"
                   "Speaks the UCI-like protocol (a superset of TaflZero's) on stdin/stdout;\n"
                   "see docs/protocol.md. 'hnefi' with no command does the same, or speaks the\n"
                   "OpenTafl engine protocol if the first line is an OpenTafl 'rules' line.\n"
                   "How long to think comes with each 'go'. Options (the defaults of the\n"
                   "protocol options of the same names):\n"
                   "  --variant V      the variant at the start (as setoption Variant)\n",
                   false, uci_extra);
    return rc >= 0 ? rc : proto_run(&cfg, 0, false, proto_uci_loop);
}

/* hnefi with no command: UCI, or OpenTafl when the first line is a `rules` line. */
int proto_auto(void) {
    struct proto_config cfg;
    proto_config_default(&cfg);
    return proto_run(&cfg, 0, true, proto_uci_loop);
}
