/*
 * Random-playout speed: how many complete uniformly random games one core plays per second.
 *
 * playout_bench_result holds what one measurement found: games played, their summed length (in
 * the game's unit), the wall time, and a checksum of the lengths, which depends only on the seed
 * and the number of games (so two paths that must play the same games can be compared). The rate
 * per core is games / cpu_seconds, which stays honest when other work shares the machine.
 */
#ifndef HNEFI_BENCH_PLAYOUT_BENCH_H
#define HNEFI_BENCH_PLAYOUT_BENCH_H

#include <stdint.h>
#include <time.h>

#include "engine/game.h"

typedef struct playout_bench_result {
    long games;         /* complete games played */
    long long length;   /* summed lengths */
    double seconds;     /* wall time */
    double cpu_seconds; /* CPU time of the calling thread: the per-core rate's base */
    uint64_t checksum;  /* hash of every game's length, in order */
} playout_bench_result;

/* Plays random games on the calling thread until `seconds` of its CPU time pass (or `max_games`
 * games when it is positive), through the game's fast path (fast = 1, where it has one) or the
 * generic interface. Returns 0, or -1 with a message for bad players or options. */
int playout_bench_run(const game_def *g, int players, const char *options, int fast, double seconds,
                      long max_games, uint64_t seed, playout_bench_result *out, char *err,
                      size_t errlen);

/* Seconds on the given clock: CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID for the
 * calling thread's CPU time. */
double playout_bench_clock(clockid_t id);

#endif
