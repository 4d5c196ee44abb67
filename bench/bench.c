/* The fixed-depth search bench and its node signature. */
#include "bench/bench.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/notation.h"
#include "search/nnue.h"
#include "search/search.h"

/* Runs the bench; returns 1 on success, 0 after writing an error. */
int bench_run(int depth, int threads, size_t hash_mib, const struct search_params *params,
              void (*progress)(int index, const char *variant, const char *fen, uint64_t nodes,
                               const char *best, void *ctx),
              void *ctx, struct bench_result *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    struct search *s = search_new(hash_mib);
    if (!s) {
        snprintf(err, errlen, "out of memory for a %zu MiB table", hash_mib);
        return 0;
    }
    struct search_options opt;
    search_options_default(&opt);
    opt.threads = threads;
    if (params) opt.params = *params;
    struct search_limits limits = {.depth = depth, .time_ms = {-1, -1}};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const char *line = bench_positions_tsv;
    int ok = 1;
    while (*line) {
        size_t len = strcspn(line, "\n");
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), line);
        line += len + (line[len] == '\n');
        if (!buf[0] || buf[0] == '#') continue;
        char *tab = strchr(buf, '\t');
        if (!tab) continue;
        *tab = 0;
        const struct variant *v = variant_by_name(buf);
        struct position p;
        char why[160];
        if (!v || !fen_parse(&p, v, tab + 1, why, sizeof why)) {
            snprintf(err, errlen, "bench position %d (%s): %s", out->positions + 1, buf,
                     v ? why : "unknown variant");
            ok = 0;
            break;
        }
        struct tafl_game *game = tafl_new(v);
        tafl_reset(game, &p);
        search_clear(s);
        struct search_result r;
        opt.net = nnue_builtin(v); /* the variant's default evaluation */
        search_run(s, game, &limits, &opt, NULL, &r);
        out->positions++;
        out->nodes += r.nodes;
        if (progress) {
            char best[MOVE_TEXT_MAX] = "(none)";
            if (r.best) move_write(r.best, v->size, best);
            progress(out->positions, buf, tab + 1, r.nodes, best, ctx);
        }
        tafl_free(game);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    search_free(s);
    return ok;
}
