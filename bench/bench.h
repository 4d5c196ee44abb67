/*
 * The search bench: a fixed search over the positions of bench/positions.tsv (compiled into the
 * program), the transposition table cleared before each, reporting the total node count (the
 * "bench signature", identical on every run and machine for a given depth) and nodes per second.
 */
#ifndef HNEFI_BENCH_BENCH_H
#define HNEFI_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

struct search_params;

/* The bench positions file, as compiled in: lines of "variant<TAB>FEN", '#' comments. */
extern const char bench_positions_tsv[];

/* What a bench run measured. */
struct bench_result {
    int positions;
    uint64_t nodes;
    double seconds;
};

/*
 * Runs the bench at the given depth with threads and hash MiB, and the search parameters params
 * (NULL: the built-in ones); calls progress (if not NULL) after each position. Returns false
 * (with err) if a position does not load.
 */
int bench_run(int depth, int threads, size_t hash_mib, const struct search_params *params,
              void (*progress)(int index, const char *variant, const char *fen, uint64_t nodes,
                               const char *best, void *ctx),
              void *ctx, struct bench_result *out, char *err, size_t errlen);

#endif
