/* Exact value iteration for two-player Saekonungr (see saek_solver.h). */
#include "search/saek_solver.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Values are stored from the mover's side: P(the player to move wins). Index of a position:
 * ((ships * (total + 1)) + longship) * (total + 1) + mover's treasury. The opponent holds the
 * rest; positions where that would be negative are never read. */
struct saek_solver {
    int total;      /* coins in play */
    int vikingdice; /* 1: Viking dice allowed */
    int stride;     /* total + 1 */
    size_t size;    /* positions per table */
    double *t;      /* start of a trading turn */
    double *d;      /* raid paid, Viking dice to choose */
    double *r[4];   /* raid with k rolls owed (r[1..3]) */
    int sweeps;
    double delta;
};

/* Index of (ships, longship, mover's coins). */
static inline size_t sv_idx(const saek_solver *sv, int ships, int lng, int m) {
    return ((size_t)ships * (size_t)sv->stride + (size_t)lng) * (size_t)sv->stride + (size_t)m;
}

/* Coins of the opponent in a position. */
static inline int sv_other(const saek_solver *sv, int ships, int lng, int m) {
    return sv->total - m - lng - __builtin_popcount((unsigned)ships);
}

/* Mover's win chance when the turn ends in this position (the opponent then moves). */
static inline double sv_end_turn(const saek_solver *sv, int ships, int lng, int m) {
    return 1.0 - sv->t[sv_idx(sv, ships, lng, sv_other(sv, ships, lng, m))];
}

/* Mover's win chance after a raid roll resolved, with k rolls then still owed. */
static inline double sv_after_raid(const saek_solver *sv, int k, int ships, int lng, int m) {
    return k > 0 ? sv->r[k][sv_idx(sv, ships, lng, m)] : sv_end_turn(sv, ships, lng, m);
}

/* Value of the best raid-7 collection with k rolls owed (the same options as the engine). */
static double sv_raid7(const saek_solver *sv, int k, int ships, int lng, int m) {
    double best = -1;
    int board = __builtin_popcount((unsigned)ships) + lng;
    double *rk = sv->r[k];
    if (board >= 2) {
        for (int i = 0; i <= SAEK_LONGSHIP; i++) {
            int have_i = i < SAEK_LONGSHIP ? (ships >> i & 1) : lng >= 1;
            if (!have_i) continue;
            int s1 = i < SAEK_LONGSHIP ? ships & ~(1 << i) : ships;
            int l1 = i < SAEK_LONGSHIP ? lng : lng - 1;
            for (int j = i; j <= SAEK_LONGSHIP; j++) {
                double v;
                if (j < SAEK_LONGSHIP) {
                    if (j == i || !(ships >> j & 1)) continue;
                    v = rk[sv_idx(sv, s1 & ~(1 << j), l1, m + 2)];
                } else {
                    if (l1 < 1) continue;
                    v = rk[sv_idx(sv, s1, l1 - 1, m + 2)];
                }
                if (v > best) best = v;
            }
        }
    } else if (board == 1) {
        double v = lng ? rk[sv_idx(sv, ships, lng - 1, m + 1)] : rk[sv_idx(sv, 0, lng, m + 1)];
        if (v > best) best = v;
    } else {
        best = rk[sv_idx(sv, ships, lng, m)];
    }
    if (sv_other(sv, ships, lng, m) > 0) {
        double v = rk[sv_idx(sv, ships, lng, m + 1)];
        if (v > best) best = v;
    }
    return best;
}

/* Bellman value of a raid position with k rolls owed. */
static double sv_raid_value(const saek_solver *sv, int k, int ships, int lng, int m) {
    double v = 0;
    for (int sum = 2; sum <= 12; sum++) {
        double p = saek_2d6_ways[sum] / 36.0, x;
        if (sum == 7) {
            x = sv_raid7(sv, k, ships, lng, m);
        } else if (sum == 2 || sum == 12) {
            x = sv_after_raid(sv, k - 1, 0, 0, m + __builtin_popcount((unsigned)ships) + lng);
        } else {
            int bit = 1 << saek_ship_index[sum];
            if (ships & bit)
                x = sv_after_raid(sv, k - 1, ships & ~bit, lng, m + 1);
            else
                x = sv_after_raid(sv, k - 1, ships, lng, m);
        }
        v += p * x;
    }
    return v;
}

/* Mover's win chance when a raid of k rolls starts in this position. */
static inline double sv_raid_start(const saek_solver *sv, int k, int ships, int lng, int m) {
    return sv->r[k][sv_idx(sv, ships, lng, m)];
}

/* Value of rolling `dice` Viking dice after paying for the raid. */
static double sv_dice_value(const saek_solver *sv, int dice, int ships, int lng, int m) {
    if (dice == 0) return sv_raid_start(sv, 1, ships, lng, m);
    if (dice == 1)
        return 0.5 * sv_raid_start(sv, 2, ships, lng, m) +
               0.5 * (m >= 1 ? sv_raid_start(sv, 1, ships, lng + 1, m - 1) : 0.0);
    return 0.25 * sv_raid_start(sv, 3, ships, lng, m) +
           0.5 * (m >= 1 ? sv_raid_start(sv, 2, ships, lng + 1, m - 1) : 0.0) +
           0.25 * (m >= 2 ? sv_raid_start(sv, 1, ships, lng + 2, m - 2) : 0.0);
}

/* Value of the Viking-dice choice (or of the plain raid without the option). */
static double sv_d_value(const saek_solver *sv, int ships, int lng, int m) {
    if (!sv->vikingdice) return sv_raid_start(sv, 1, ships, lng, m);
    double best = sv_dice_value(sv, 0, ships, lng, m);
    for (int d = 1; d <= 2; d++) {
        double v = sv_dice_value(sv, d, ships, lng, m);
        if (v > best) best = v;
    }
    return best;
}

/* Bellman value of the start of a trading turn. */
static double sv_turn_value(const saek_solver *sv, int ships, int lng, int m) {
    double v = 0;
    for (int sum = 2; sum <= 12; sum++) {
        double p = saek_2d6_ways[sum] / 36.0, x;
        if (sum == 7) {
            x = m >= 1 ? sv->d[sv_idx(sv, ships, lng + 1, m - 1)] : 0.0;
        } else if (sum == 2 || sum == 12) {
            x = sv_end_turn(sv, 0, lng, m + __builtin_popcount((unsigned)ships));
        } else {
            int bit = 1 << saek_ship_index[sum];
            if (ships & bit)
                x = sv_end_turn(sv, ships & ~bit, lng, m + 1);
            else
                x = m >= 1 ? sv_end_turn(sv, ships | bit, lng, m - 1) : 0.0;
        }
        v += p * x;
    }
    return v;
}

/* Solves the game with `total` coins in play. */
saek_solver *saek_solver_solve(int total, int vikingdice, double tolerance) {
    if (total < 2 || total > 60) return NULL;
    saek_solver *sv = calloc(1, sizeof *sv);
    if (!sv) return NULL;
    sv->total = total;
    sv->vikingdice = vikingdice;
    sv->stride = total + 1;
    sv->size = 256 * (size_t)sv->stride * (size_t)sv->stride;
    double *mem = malloc(5 * sv->size * sizeof(double));
    if (!mem) {
        free(sv);
        return NULL;
    }
    sv->t = mem;
    sv->d = mem + sv->size;
    for (int k = 1; k <= 3; k++) sv->r[k] = mem + (size_t)(1 + k) * sv->size;
    for (size_t i = 0; i < 5 * sv->size; i++) mem[i] = 0.5;
    for (;;) {
        double delta = 0;
        for (int ships = 0; ships < 256; ships++) {
            int pop = __builtin_popcount((unsigned)ships);
            for (int lng = 0; lng + pop <= total; lng++) {
                for (int m = 0; m + lng + pop <= total; m++) {
                    size_t i = sv_idx(sv, ships, lng, m);
                    /* raids with fewer rolls first: they feed the longer ones */
                    for (int k = 1; k <= 3; k++) {
                        double v = sv_raid_value(sv, k, ships, lng, m);
                        double dv = fabs(v - sv->r[k][i]);
                        if (dv > delta) delta = dv;
                        sv->r[k][i] = v;
                    }
                    double v = sv_d_value(sv, ships, lng, m);
                    if (fabs(v - sv->d[i]) > delta) delta = fabs(v - sv->d[i]);
                    sv->d[i] = v;
                    v = sv_turn_value(sv, ships, lng, m);
                    if (fabs(v - sv->t[i]) > delta) delta = fabs(v - sv->t[i]);
                    sv->t[i] = v;
                }
            }
        }
        sv->sweeps++;
        sv->delta = delta;
        if (delta < tolerance || sv->sweeps >= 100000) break;
    }
    return sv;
}

/* Frees a solver. */
void saek_solver_free(saek_solver *sv) {
    if (!sv) return;
    free(sv->t);
    free(sv);
}

/* Sweeps used and the largest change in the last sweep. */
void saek_solver_stats(const saek_solver *sv, int *sweeps, double *last_delta) {
    *sweeps = sv->sweeps;
    *last_delta = sv->delta;
}

/* Mover's win chance in a two-player state (any phase); -2 when not covered. */
static double sv_mover_value(const saek_solver *sv, const saek_state *s) {
    int mv = s->to_move, op = 1 - mv;
    int ships = s->ships, lng = s->longship, m = s->coins[mv];
    switch (s->phase) {
    case SAEK_ROLL: return sv->t[sv_idx(sv, ships, lng, m)];
    case SAEK_VDICE: return sv->d[sv_idx(sv, ships, lng, m)];
    case SAEK_VROLL: {
        double v = 0;
        double p1 = s->dice == 1 ? 0.5 : 0.25;
        for (int sh = 0; sh <= s->dice; sh++) {
            double p = (s->dice == 2 && sh == 1) ? 0.5 : p1;
            int x = s->dice - sh;
            v += p * (m >= x ? sv_raid_start(sv, 1 + sh, ships, lng + x, m - x) : 0.0);
        }
        return v;
    }
    case SAEK_RAID: return sv->r[s->rolls][sv_idx(sv, ships, lng, m)];
    case SAEK_RAID7: return sv_raid7(sv, s->rolls, ships, lng, m);
    default: (void)op; return -2;
    }
}

/* Probability that player 0 wins from a covered state, or -1. */
double saek_solver_value(const saek_solver *sv, const saek_state *s) {
    if (s->nplayers != 2) return -1;
    if (s->phase == SAEK_OVER) return (s->alive & 1) ? ((s->alive & 2) ? 0.5 : 1.0) : 0.0;
    if (s->alive != 3) return -1;
    int total = s->coins[0] + s->coins[1] + s->longship + __builtin_popcount(s->ships);
    if (total != sv->total || s->opt_vikingdice != sv->vikingdice) return -1;
    if (s->phase == SAEK_START) {
        saek_state c = *s;
        c.phase = SAEK_ROLL;
        c.to_move = 0;
        double v0 = sv_mover_value(sv, &c);
        c.to_move = 1;
        double v1 = 1.0 - sv_mover_value(sv, &c);
        return 0.5 * (v0 + v1);
    }
    if ((s->phase == SAEK_RAID || s->phase == SAEK_RAID7) && (s->rolls < 1 || s->rolls > 3))
        return -1;
    double v = sv_mover_value(sv, s);
    if (v < -1) return -1;
    return s->to_move == 0 ? v : 1.0 - v;
}

/* Writes each legal action and the mover's win probability after it. */
int saek_solver_actions(const saek_solver *sv, const saek_state *s, int *actions, double *value) {
    if (saek_solver_value(sv, s) < 0) return -1;
    if (s->phase != SAEK_VDICE && s->phase != SAEK_RAID7) return -1;
    int n = saek_game.legal(s, s->to_move, actions);
    for (int i = 0; i < n; i++) {
        saek_state c = *s;
        saek_game.apply(&c, actions[i]);
        double v0 = saek_solver_value(sv, &c);
        value[i] = s->to_move == 0 ? v0 : 1.0 - v0;
    }
    return n;
}

/* ----- the shared cache ----- */

enum { SV_CACHE = 8 };
static pthread_mutex_t sv_lock = PTHREAD_MUTEX_INITIALIZER;
static saek_solver *sv_cache[SV_CACHE];

/* Returns a solver shared by all callers for these settings, solving it on first use. */
const saek_solver *saek_solver_shared(int total, int vikingdice) {
    pthread_mutex_lock(&sv_lock);
    saek_solver *found = NULL;
    int slot = -1;
    for (int i = 0; i < SV_CACHE; i++) {
        if (sv_cache[i] && sv_cache[i]->total == total && sv_cache[i]->vikingdice == vikingdice)
            found = sv_cache[i];
        else if (!sv_cache[i] && slot < 0)
            slot = i;
    }
    if (!found && slot >= 0) {
        found = saek_solver_solve(total, vikingdice, 1e-10);
        sv_cache[slot] = found;
    }
    pthread_mutex_unlock(&sv_lock);
    return found;
}
