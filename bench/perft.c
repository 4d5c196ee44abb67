/* Perft with bulk counting at the last ply. */
#include "bench/perft.h"

#include "engine/make.h"
#include "engine/movegen.h"

/* perft with a look at *stop at every node two or more plies from the leaves. */
static uint64_t perft_watched(const struct position *p, int depth, const atomic_bool *stop) {
    if (depth == 0) return 1;
    if (p->result != RESULT_NONE) return 0;
    if (depth == 1) return (uint64_t)movegen_count(p);
    if (atomic_load_explicit(stop, memory_order_relaxed)) return 0;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    uint64_t total = 0;
    struct position child;
    for (int i = 0; i < n; i++) {
        make_move(&child, p, moves[i]);
        total += perft_watched(&child, depth - 1, stop);
    }
    return total;
}

/* Returns perft(depth) of p. */
uint64_t perft(const struct position *p, int depth) {
    static const atomic_bool never = false;
    return perft_watched(p, depth, &never);
}

/* Returns perft(depth) of p, or what it had counted when *stop was set (*stopped says so). */
uint64_t perft_stoppable(const struct position *p, int depth, const atomic_bool *stop,
                         bool *stopped) {
    uint64_t n = perft_watched(p, depth, stop);
    *stopped = atomic_load(stop);
    return n;
}

/* Calls out(move, count, ctx) for each root move with the perft(depth-1) below it; returns the sum.
 */
uint64_t perft_divide(const struct position *p, int depth,
                      void (*out)(move_t m, uint64_t count, void *ctx), void *ctx) {
    if (depth < 1 || p->result != RESULT_NONE) return depth < 1;
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    uint64_t total = 0;
    struct position child;
    for (int i = 0; i < n; i++) {
        make_move(&child, p, moves[i]);
        uint64_t c = perft(&child, depth - 1);
        out(moves[i], c, ctx);
        total += c;
    }
    return total;
}
