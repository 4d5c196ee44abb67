/*
 * Perft: the number of positions reached by exactly d legal plies (rules.md §8). A position where
 * the game has ended before depth d counts 0 and is not expanded; no repetition rule applies. The
 * last ply is counted in bulk with the count-only move generator.
 */
#ifndef HNEFI_BENCH_PERFT_H
#define HNEFI_BENCH_PERFT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/position.h"

/* Returns perft(depth) of p. */
uint64_t perft(const struct position *p, int depth);

/* Returns perft(depth) of p, or what it had counted when *stop was set (*stopped says so). */
uint64_t perft_stoppable(const struct position *p, int depth, const atomic_bool *stop,
                         bool *stopped);

/* Calls out(move, count, ctx) for each root move with the perft(depth-1) below it; returns the sum.
 */
uint64_t perft_divide(const struct position *p, int depth,
                      void (*out)(move_t m, uint64_t count, void *ctx), void *ctx);

#endif
