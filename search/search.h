/*
 * The tafl search: iterative deepening, principal-variation alpha-beta with aspiration windows,
 * a shared transposition table, and Lazy SMP on a persistent thread pool.
 *
 * Scores are from the side to move's point of view in centi-men, as search/score.h defines
 * them (forced wins and losses included); the limits and deadlines are in search/timeman.h. The
 * search never prints: it reports each finished iteration (and each MultiPV line) through struct
 * search_callbacks. With one thread it is deterministic: the same position, options, limits and
 * table contents give the same nodes, lines and move.
 *
 * A node is one position the search enters by making a move (main search and quiescence alike);
 * the root is not counted.
 */
#ifndef HNEFI_SEARCH_SEARCH_H
#define HNEFI_SEARCH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/tafl.h"
#include "search/eval.h"
#include "search/params.h"
#include "search/score.h"
#include "search/timeman.h"

enum {
    SEARCH_MAX_THREADS = 64,
    SEARCH_MAX_MULTIPV = 64,
};

struct nnue_net;

/* Options that shape a search. */
struct search_options {
    int threads;
    int multipv;
    int move_overhead_ms;
    struct eval_weights weights; /* the classical evaluation's */
    const struct nnue_net *net;  /* the learned evaluation; NULL: the classical one */
    bool null_move;              /* null-move pruning */
    bool lmr;                    /* late-move reductions */
    struct search_params params; /* pruning and reduction numbers (search/params.h) */
};

/* One finished line: what an iteration found for one MultiPV slot. */
struct search_line {
    int multipv; /* 1-based */
    int depth, seldepth;
    int score;
    uint64_t nodes, nps;
    int64_t time_ms;
    int hashfull; /* permille */
    int pv_len;
    move_t pv[SEARCH_MAX_PLY];
};

/* The callbacks a search reports through; any may be NULL. */
struct search_callbacks {
    void (*on_iteration)(const struct search_line *line, void *ctx);
    void (*on_bestmove)(move_t best, move_t ponder, void *ctx);
    void *ctx;
};

/* What a finished search found. */
struct search_result {
    move_t best, ponder;
    int score, depth;
    uint64_t nodes;
    int64_t time_ms;
};

struct search;

/* Sets the default options: one thread, one line, 30 ms overhead, default weights. */
void search_options_default(struct search_options *o);

/* Creates a search context with a table of hash_mib MiB (NULL if out of memory). */
struct search *search_new(size_t hash_mib);

/* Stops and joins the threads and frees everything. */
void search_free(struct search *s);

/*
 * Resizes the transposition table; false if out of memory (the old table stays). ready(ctx), if
 * not NULL, is called once the new table is found and before the old one is dropped: a caller
 * with a search running stops it there, so that a failed resize leaves the search running.
 */
bool search_set_hash(struct search *s, size_t mib, void (*ready)(void *ctx), void *ctx);

/* Clears the table and the move-ordering history (a new game). */
void search_clear(struct search *s);

/*
 * Searches the current position of game within the limits, blocking until done; reports through
 * cb and fills *out. With no legal move, out->best is MOVE_NONE.
 */
void search_run(struct search *s, const struct tafl_game *game, const struct search_limits *limits,
                const struct search_options *opt, const struct search_callbacks *cb,
                struct search_result *out);

/* Asks a running search to stop as soon as it can (safe from any thread). */
void search_stop(struct search *s);

/*
 * Returns the static evaluation of p for its side to move with the evaluation of opt: the
 * network when opt->net is set (and fits p's board), else the classical one.
 */
int search_evaluate(const struct search_options *opt, const struct position *p);

#endif
