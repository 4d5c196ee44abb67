/*
 * The shared playout harness: many games between policies, in parallel, with statistics.
 *
 * playout_config says what to run: a game, its player count and options, one policy spec per
 * slot (slot k is the k-th policy named), the number of games, the seed and the thread count.
 * Game i is played with its own generator seeded from (seed, i) and with the slots rotated by
 * i mod players (seat s is played by slot (s + i) mod players), so every slot sits in every seat
 * equally often and the result depends only on the seed, never on the thread count or timing.
 *
 * playout_stats holds the totals. Win shares are counted in units of 1/PLAYOUT_SHARE_UNIT and
 * points in thousandths, both as integers, so sums are exact and independent of the order in
 * which threads finish. Lengths are kept as a histogram (the last bucket collects longer games).
 */
#ifndef HNEFI_SELFPLAY_PLAYOUT_H
#define HNEFI_SELFPLAY_PLAYOUT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/game.h"

enum {
    PLAYOUT_SHARE_UNIT = 840,     /* lcm(1..8): any k-way tie splits exactly */
    PLAYOUT_LENGTH_MAX = 1 << 16, /* histogram buckets 0..PLAYOUT_LENGTH_MAX */
};

typedef struct playout_config {
    const game_def *game;
    int players;                          /* seats (= slots) */
    const char *options;                  /* game options or NULL */
    const char *policy[GAME_MAX_PLAYERS]; /* spec per slot */
    long games;                           /* games to play (>= 1) */
    uint64_t seed;                        /* run seed */
    int threads;                          /* worker threads; 0 = one per core */
    int progress;                         /* 1: progress lines on stderr */
} playout_config;

typedef struct playout_tally {
    int64_t win;    /* summed shares in 1/PLAYOUT_SHARE_UNIT */
    int64_t win_sq; /* summed squared shares in 1/PLAYOUT_SHARE_UNIT^2 */
    int64_t points; /* summed points in thousandths */
    int64_t games;  /* games counted */
} playout_tally;

typedef struct playout_stats {
    int players;
    int64_t games;
    playout_tally slot[GAME_MAX_PLAYERS]; /* by policy slot */
    playout_tally seat[GAME_MAX_PLAYERS]; /* by seat */
    int64_t *length_hist;                 /* PLAYOUT_LENGTH_MAX + 1 buckets */
    int64_t length_sum;
    int length_min, length_max;
    double seconds; /* wall time (not part of the reproducible output) */
} playout_stats;

/* Runs the games; 0, or -1 with a message (bad policy spec, bad options) in err. */
int playout_run(const playout_config *cfg, playout_stats *out, char *err, size_t errlen);

/* Frees what playout_run allocated in stats. */
void playout_stats_free(playout_stats *st);

/* Mean share and its 95% interval: the Wilson score interval (selfplay/stats.h), within [0, 1]
 * and never zero wide; [0, 1] with no games. */
void playout_interval(const playout_tally *t, double *mean, double *lo, double *hi);

/* The length below which a fraction q of games ended. */
int playout_length_quantile(const playout_stats *st, double q);

/* Writes the results as readable text: a table per slot and per seat, then the lengths. */
void playout_write_text(FILE *f, const playout_config *cfg, const playout_stats *st);

/* Writes the results as CSV: one row per slot and per seat, then one row of lengths. */
void playout_write_csv(FILE *f, const playout_config *cfg, const playout_stats *st);

/* Writes the results as one JSON object, with the full length histogram. */
void playout_write_json(FILE *f, const playout_config *cfg, const playout_stats *st);

#endif
