/* Random-playout speed (see playout_bench.h). */
#include "bench/playout_bench.h"

/* Seconds on the given clock. */
double playout_bench_clock(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Plays random games and measures them. */
int playout_bench_run(const game_def *g, int players, const char *options, int fast, double seconds,
                      long max_games, uint64_t seed, playout_bench_result *out, char *err,
                      size_t errlen) {
    game_buffer start, st;
    if (g->init(start.bytes, players, options, err, errlen)) return -1;
    game_rng rng;
    rng_seed(&rng, seed);
    out->games = 0;
    out->length = 0;
    out->checksum = 1469598103934665603ULL;
    double t0 = playout_bench_clock(CLOCK_MONOTONIC);
    double c0 = playout_bench_clock(CLOCK_THREAD_CPUTIME_ID), c = c0;
    for (;;) {
        /* check the clock every 64 games */
        for (int k = 0; k < 64; k++) {
            game_copy(g, st.bytes, start.bytes);
            int len = (fast && g->playout) ? g->playout(st.bytes, &rng)
                                           : game_playout_random(g, st.bytes, &rng);
            out->games++;
            out->length += len;
            out->checksum = (out->checksum ^ (uint64_t)len) * 1099511628211ULL;
            if (max_games > 0 && out->games >= max_games) break;
        }
        c = playout_bench_clock(CLOCK_THREAD_CPUTIME_ID);
        if (max_games > 0 ? out->games >= max_games : c - c0 >= seconds) break;
    }
    out->seconds = playout_bench_clock(CLOCK_MONOTONIC) - t0;
    out->cpu_seconds = c - c0;
    return 0;
}
