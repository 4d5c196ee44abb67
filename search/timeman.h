/*
 * Time management: what bounds a search (depth, nodes, a fixed move time, the clocks), and the
 * soft and hard deadlines planned from it. Only the search's main thread reads the clock.
 *
 * The soft deadline is checked between iterations (no new iteration starts after it); the hard
 * one stops the search wherever it is. A fixed move time is a hard deadline, used whole; a clock
 * gives a share of the remaining time plus most of the increment, with a hard
 * deadline of four shares, never more than four fifths of the clock.
 */
#ifndef HNEFI_SEARCH_TIMEMAN_H
#define HNEFI_SEARCH_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* What bounds a search; zero fields do not bound it. Clocks are per side (enum side). */
struct search_limits {
    int depth;
    uint64_t nodes;
    int64_t movetime_ms;
    int64_t time_ms[2]; /* remaining clock, < 0 when there is no clock */
    int64_t inc_ms[2];
    int movestogo;
    bool infinite; /* search until search_stop */
};

/* A search's start time and deadlines (0: none). */
struct timeman {
    struct timespec start;
    int64_t soft_ms, hard_ms;
};

/* Starts the clock of a search and plans its deadlines for the side to move. */
void tm_start(struct timeman *tm, const struct search_limits *l, int overhead_ms, int side);

/* Returns milliseconds since the search started. */
int64_t tm_elapsed_ms(const struct timeman *tm);

/*
 * Returns the soft deadline scaled by how settled the search is (search parameter tm_stable):
 * instability is the count of best-move changes over the iterations, each halved at every later
 * iteration, in hundredths (0 to 200); drop is how far the score fell at the last iteration, in
 * centi-men for the side to move (a rise counts as none). From 70% of it for a best move that has
 * not changed and a score that has not fallen, up to 250%; 0 when there is no soft deadline.
 */
int64_t tm_soft_scaled(const struct timeman *tm, int instability, int drop);

#endif
