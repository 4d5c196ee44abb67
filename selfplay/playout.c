/* The shared playout harness: parallel games between policies (see playout.h). */
#include "selfplay/playout.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "search/mc.h"
#include "selfplay/stats.h"

/* What one worker thread shares with the others and returns. */
typedef struct playout_worker {
    const playout_config *cfg;
    atomic_long *next;  /* next game index to claim */
    atomic_long *done;  /* games finished */
    playout_stats part; /* this thread's totals */
    mc_policy pol[GAME_MAX_PLAYERS];
} playout_worker;

/* Seconds on a monotonic clock. */
static double playout_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Plays game `index` and adds it to the worker's totals. */
static void playout_one(playout_worker *w, long index) {
    const playout_config *cfg = w->cfg;
    const game_def *g = cfg->game;
    int n = cfg->players;
    game_buffer gb;
    void *st = gb.bytes;
    char err[256];
    game_rng rng;
    rng_seed(&rng, rng_derive(cfg->seed, (uint64_t)index));
    g->init(st, n, cfg->options, err, sizeof err);
    int rot = (int)(index % n);
    mc_policy *seat_pol[GAME_MAX_PLAYERS];
    for (int s = 0; s < n; s++) seat_pol[s] = &w->pol[(s + rot) % n];
    while (!mc_step(seat_pol, g, st, &rng)) {
    }
    double share[GAME_MAX_PLAYERS], pts[GAME_MAX_PLAYERS];
    g->result(st, share);
    g->points(st, pts);
    for (int s = 0; s < n; s++) {
        int64_t u = llround(share[s] * PLAYOUT_SHARE_UNIT);
        int64_t p = llround(pts[s] * 1000.0);
        playout_tally *tl[2] = {&w->part.seat[s], &w->part.slot[(s + rot) % n]};
        for (int k = 0; k < 2; k++) {
            tl[k]->win += u;
            tl[k]->win_sq += u * u;
            tl[k]->points += p;
            tl[k]->games++;
        }
    }
    int len = g->length(st);
    w->part.games++;
    w->part.length_sum += len;
    if (len < w->part.length_min) w->part.length_min = len;
    if (len > w->part.length_max) w->part.length_max = len;
    w->part.length_hist[len < 0 ? 0 : len > PLAYOUT_LENGTH_MAX ? PLAYOUT_LENGTH_MAX : len]++;
}

/* Worker thread: claims game indices until none are left. */
static void *playout_thread(void *arg) {
    playout_worker *w = arg;
    for (;;) {
        long i = atomic_fetch_add(w->next, 1);
        if (i >= w->cfg->games) break;
        playout_one(w, i);
        atomic_fetch_add(w->done, 1);
    }
    return NULL;
}

/* Prepares empty totals. */
static int playout_stats_init(playout_stats *st, int players) {
    memset(st, 0, sizeof *st);
    st->players = players;
    st->length_min = 1 << 30;
    st->length_max = -1;
    st->length_hist = calloc(PLAYOUT_LENGTH_MAX + 1, sizeof *st->length_hist);
    return st->length_hist ? 0 : -1;
}

/* Frees what playout_run allocated in stats. */
void playout_stats_free(playout_stats *st) {
    free(st->length_hist);
    st->length_hist = NULL;
}

/* Runs the games. */
int playout_run(const playout_config *cfg, playout_stats *out, char *err, size_t errlen) {
    const game_def *g = cfg->game;
    int n = cfg->players;
    if (!g || n < g->min_players || n > g->max_players) {
        snprintf(err, errlen, "%s needs %d to %d players", g ? g->name : "game",
                 g ? g->min_players : 0, g ? g->max_players : 0);
        return -1;
    }
    if (cfg->games < 1) {
        snprintf(err, errlen, "the number of games must be at least 1");
        return -1;
    }
    /* check the options and the policies once, before any thread starts */
    game_buffer gb;
    if (g->init(gb.bytes, n, cfg->options, err, errlen)) return -1;
    for (int k = 0; k < n; k++) {
        mc_policy p;
        if (mc_policy_init(&p, g, cfg->policy[k], err, errlen)) return -1;
        int bad = mc_policy_check_players(&p, n, err, errlen);
        mc_policy_done(&p);
        if (bad) return -1;
    }
    int threads = cfg->threads;
    if (threads <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (int)c : 1;
    }
    if (threads > 256) threads = 256;
    if (threads > cfg->games) threads = (int)cfg->games;
    playout_worker *w = calloc((size_t)threads, sizeof *w);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!w || !tid || playout_stats_init(out, n)) {
        free(w);
        free(tid);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    atomic_long next = 0, done = 0;
    double t0 = playout_now();
    for (int t = 0; t < threads; t++) {
        w[t].cfg = cfg;
        w[t].next = &next;
        w[t].done = &done;
        playout_stats_init(&w[t].part, n);
        for (int k = 0; k < n; k++) mc_policy_init(&w[t].pol[k], g, cfg->policy[k], err, errlen);
        pthread_create(&tid[t], NULL, playout_thread, &w[t]);
    }
    if (cfg->progress) {
        double last = t0;
        while (atomic_load(&done) < cfg->games) {
            usleep(20000);
            double now = playout_now();
            if (now - last >= 1.0) {
                long d = atomic_load(&done);
                fprintf(stderr, "\r%ld/%ld games, %.0f games/s   ", d, cfg->games, d / (now - t0));
                last = now;
            }
        }
    }
    for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
    if (cfg->progress) fprintf(stderr, "\r%ld/%ld games done          \n", cfg->games, cfg->games);
    /* merge: integer sums, so the order does not matter */
    for (int t = 0; t < threads; t++) {
        playout_stats *p = &w[t].part;
        out->games += p->games;
        for (int k = 0; k < n; k++) {
            playout_tally *a[2] = {&out->slot[k], &out->seat[k]};
            const playout_tally *b[2] = {&p->slot[k], &p->seat[k]};
            for (int j = 0; j < 2; j++) {
                a[j]->win += b[j]->win;
                a[j]->win_sq += b[j]->win_sq;
                a[j]->points += b[j]->points;
                a[j]->games += b[j]->games;
            }
        }
        out->length_sum += p->length_sum;
        if (p->length_min < out->length_min) out->length_min = p->length_min;
        if (p->length_max > out->length_max) out->length_max = p->length_max;
        for (int i = 0; i <= PLAYOUT_LENGTH_MAX; i++) out->length_hist[i] += p->length_hist[i];
        playout_stats_free(p);
        for (int k = 0; k < n; k++) mc_policy_done(&w[t].pol[k]);
    }
    out->seconds = playout_now() - t0;
    free(w);
    free(tid);
    return 0;
}

/* Mean share and its 95% interval (the Wilson score interval, selfplay/stats.h). */
void playout_interval(const playout_tally *t, double *mean, double *lo, double *hi) {
    double n = (double)t->games;
    *mean = n > 0 ? (double)t->win / PLAYOUT_SHARE_UNIT / n : 0;
    stats_wilson(*mean, n, lo, hi);
}

/* The length below which a fraction q of games ended. */
int playout_length_quantile(const playout_stats *st, double q) {
    int64_t need = (int64_t)ceil(q * (double)st->games), acc = 0;
    if (need < 1) need = 1;
    for (int i = 0; i <= PLAYOUT_LENGTH_MAX; i++) {
        acc += st->length_hist[i];
        if (acc >= need) return i;
    }
    return PLAYOUT_LENGTH_MAX;
}

/* Writes the results as readable text. */
void playout_write_text(FILE *f, const playout_config *cfg, const playout_stats *st) {
    fprintf(f, "%s, %d players, %lld games, seed %llu\n", cfg->game->title, st->players,
            (long long)st->games, (unsigned long long)cfg->seed);
    fprintf(f, "%-6s %-32s %8s %17s %10s\n", "slot", "policy", "win", "95% interval", "points");
    for (int k = 0; k < st->players; k++) {
        double m, lo, hi;
        playout_interval(&st->slot[k], &m, &lo, &hi);
        fprintf(f, "%-6d %-32s %8.4f   [%.4f, %.4f] %10.3f\n", k, cfg->policy[k], m, lo, hi,
                st->slot[k].points / 1000.0 / (double)st->slot[k].games);
    }
    fprintf(f, "%-6s %-32s %8s %17s %10s\n", "seat", "", "win", "95% interval", "points");
    for (int s = 0; s < st->players; s++) {
        double m, lo, hi;
        playout_interval(&st->seat[s], &m, &lo, &hi);
        fprintf(f, "%-6d %-32s %8.4f   [%.4f, %.4f] %10.3f\n", s, "", m, lo, hi,
                st->seat[s].points / 1000.0 / (double)st->seat[s].games);
    }
    fprintf(f, "length: mean %.1f, min %d, median %d, 90%% %d, max %d\n",
            (double)st->length_sum / (double)st->games, st->length_min,
            playout_length_quantile(st, 0.5), playout_length_quantile(st, 0.9), st->length_max);
}

/* Writes the results as CSV: one row per slot and per seat. */
void playout_write_csv(FILE *f, const playout_config *cfg, const playout_stats *st) {
    fprintf(f, "kind,index,policy,games,win,win_lo,win_hi,mean_points\n");
    for (int j = 0; j < 2; j++) {
        for (int k = 0; k < st->players; k++) {
            const playout_tally *t = j == 0 ? &st->slot[k] : &st->seat[k];
            double m, lo, hi;
            playout_interval(t, &m, &lo, &hi);
            fprintf(f, "%s,%d,%s,%lld,%.6f,%.6f,%.6f,%.4f\n", j == 0 ? "slot" : "seat", k,
                    j == 0 ? cfg->policy[k] : "", (long long)t->games, m, lo, hi,
                    t->points / 1000.0 / (double)t->games);
        }
    }
    fprintf(f, "length,mean,%.4f,min,%d,median,%d,max,%d\n",
            (double)st->length_sum / (double)st->games, st->length_min,
            playout_length_quantile(st, 0.5), st->length_max);
}

/* Writes a JSON string (policy specs contain no quotes or backslashes worth escaping, but
 * escape them anyway). */
static void playout_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Writes the results as one JSON object. */
void playout_write_json(FILE *f, const playout_config *cfg, const playout_stats *st) {
    fprintf(f, "{\"game\": \"%s\", \"players\": %d, \"games\": %lld, \"seed\": %llu, ",
            cfg->game->name, st->players, (long long)st->games, (unsigned long long)cfg->seed);
    fprintf(f, "\"options\": ");
    playout_json_string(f, cfg->options ? cfg->options : "");
    for (int j = 0; j < 2; j++) {
        fprintf(f, ", \"%s\": [", j == 0 ? "slots" : "seats");
        for (int k = 0; k < st->players; k++) {
            const playout_tally *t = j == 0 ? &st->slot[k] : &st->seat[k];
            double m, lo, hi;
            playout_interval(t, &m, &lo, &hi);
            fprintf(f, "%s{\"index\": %d, ", k ? ", " : "", k);
            if (j == 0) {
                fprintf(f, "\"policy\": ");
                playout_json_string(f, cfg->policy[k]);
                fprintf(f, ", ");
            }
            fprintf(f, "\"win\": %.6f, \"win_lo\": %.6f, \"win_hi\": %.6f, \"mean_points\": %.4f}",
                    m, lo, hi, t->points / 1000.0 / (double)t->games);
        }
        fprintf(f, "]");
    }
    fprintf(f,
            ", \"length\": {\"mean\": %.4f, \"min\": %d, \"median\": %d, \"p90\": %d, "
            "\"max\": %d, \"histogram\": [",
            (double)st->length_sum / (double)st->games, st->length_min,
            playout_length_quantile(st, 0.5), playout_length_quantile(st, 0.9), st->length_max);
    int first = 1;
    for (int i = 0; i <= PLAYOUT_LENGTH_MAX; i++)
        if (st->length_hist[i]) {
            fprintf(f, "%s[%d, %lld]", first ? "" : ", ", i, (long long)st->length_hist[i]);
            first = 0;
        }
    fprintf(f, "]}}\n");
}
