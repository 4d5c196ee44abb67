/* Exact value iteration for two-player Saekonungr (see saek_solver.h). */
#include "search/saek_solver.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/mc.h"

/* Values are stored from the mover's side: P(the player to move wins). Index of a position:
 * ((ships * (total + 1)) + longship) * (total + 1) + mover's treasury. The opponent holds the
 * rest; positions where that would be negative are never read. */
enum { SV_RAID7_MAX = 64 }; /* raid-7 collections of one position: at most 36 pairs, 1 robbery */

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

/* Writes the positions the raid-7 collections lead to (the same options as the engine: two
 * board coins, the only one, nothing, or an opponent's coin); returns their count. Positions
 * are found as offsets from (ships, lng, m): a ship coin taken is -bit * stride^2, a longship
 * coin -stride, each coin gained +1. */
static int sv_raid7_targets(const saek_solver *sv, int ships, int lng, int m, size_t *to) {
    size_t i0 = sv_idx(sv, ships, lng, m), ship = (size_t)sv->stride * (size_t)sv->stride;
    size_t coin = (size_t)sv->stride;
    int n = 0, board = __builtin_popcount((unsigned)ships) + lng;
    if (board >= 2) {
        for (unsigned a = (unsigned)ships; a; a &= a - 1) {
            size_t after = i0 - (size_t)(a & -a) * ship + 2;
            for (unsigned b = a & (a - 1); b; b &= b - 1) to[n++] = after - (size_t)(b & -b) * ship;
            if (lng >= 1) to[n++] = after - coin;
        }
        if (lng >= 2) to[n++] = i0 - 2 * coin + 2;
    } else if (board == 1) {
        to[n++] = (lng ? i0 - coin : i0 - (size_t)ships * ship) + 1;
    } else {
        to[n++] = i0;
    }
    if (sv_other(sv, ships, lng, m) > 0) to[n++] = i0 + 1;
    return n;
}

/* The largest of table[to[0..n)]. */
static inline double sv_best(const double *table, const size_t *to, int n) {
    double best = -1;
    for (int i = 0; i < n; i++)
        if (table[to[i]] > best) best = table[to[i]];
    return best;
}

/* Value of the best raid-7 collection with k rolls owed. */
static double sv_raid7(const saek_solver *sv, int k, int ships, int lng, int m) {
    size_t to[SV_RAID7_MAX];
    return sv_best(sv->r[k], to, sv_raid7_targets(sv, ships, lng, m, to));
}

/*
 * Updates the raid values r[1..3] of one position, in that order: with k rolls owed a roll's
 * outcome is worth r[k - 1] where it leads, or the end of the turn after the last roll; a 7 is
 * worth the best collection (read before any of the three is written, as each reads only its
 * own table). Returns the largest change.
 */
static double sv_update_raids(saek_solver *sv, int ships, int lng, int m, size_t i) {
    size_t to[SV_RAID7_MAX], next[13], end[13], ship = (size_t)sv->stride * (size_t)sv->stride;
    int n7 = sv_raid7_targets(sv, ships, lng, m, to);
    double best7[4];
    for (int k = 1; k <= 3; k++) best7[k] = sv_best(sv->r[k], to, n7);
    /* where each roll leads: the mover's position, and the opponent's for the next turn */
    size_t base = i - (size_t)m;
    int other = sv_other(sv, ships, lng, m);
    for (int sum = 2; sum <= 12; sum++) {
        int loc = saek_ship_index[sum];
        if (sum == 2 || sum == 12) {
            next[sum] = (size_t)(m + __builtin_popcount((unsigned)ships) + lng);
            end[sum] = (size_t)other;
        } else if (loc >= 0 && (ships >> loc & 1)) {
            next[sum] = i - ((size_t)1 << loc) * ship + 1;
            end[sum] = base - ((size_t)1 << loc) * ship + (size_t)other;
        } else {
            next[sum] = i;
            end[sum] = base + (size_t)other;
        }
    }
    double delta = 0;
    for (int k = 1; k <= 3; k++) {
        double v = 0;
        for (int sum = 2; sum <= 12; sum++) {
            double p = saek_2d6_ways[sum] / 36.0, x;
            if (sum == 7)
                x = best7[k];
            else
                x = k > 1 ? sv->r[k - 1][next[sum]] : 1.0 - sv->t[end[sum]];
            v += p * x;
        }
        double dv = fabs(v - sv->r[k][i]);
        if (dv > delta) delta = dv;
        sv->r[k][i] = v;
    }
    return delta;
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

/* Bellman value of the start of a trading turn. A trading roll never changes the opponent's
 * treasury, so every position after it is an offset from (ships, lng, 0). */
static double sv_turn_value(const saek_solver *sv, int ships, int lng, int m) {
    size_t stride = (size_t)sv->stride, ship = stride * stride, i = sv_idx(sv, ships, lng, m);
    size_t base = i - (size_t)m, other = (size_t)sv_other(sv, ships, lng, m);
    double v = 0;
    for (int sum = 2; sum <= 12; sum++) {
        double p = saek_2d6_ways[sum] / 36.0, x;
        if (sum == 7) {
            x = m >= 1 ? sv->d[i + stride - 1] : 0.0; /* a coin to the longship */
        } else if (sum == 2 || sum == 12) {
            x = 1.0 - sv->t[(size_t)lng * stride + other]; /* every ship emptied */
        } else {
            size_t bit = (size_t)1 << saek_ship_index[sum];
            if ((size_t)ships & bit)
                x = 1.0 - sv->t[base - bit * ship + other];
            else
                x = m >= 1 ? 1.0 - sv->t[base + bit * ship + other] : 0.0;
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
                    double dr = sv_update_raids(sv, ships, lng, m, i);
                    if (dr > delta) delta = dr;
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

/* ----- the policy `opt` (search/mc.h): the exact optimum as a Monte-Carlo policy ----- */

/* opt: values every action with the exact solver. */
static int opt_analyze(mc_policy *p, const void *st, int player, game_rng *rng, int *acts,
                       double *value, int *samples) {
    const saek_state *s = st;
    (void)rng;
    (void)player;
    int total = s->coins[0] + s->coins[1] + s->longship + saek_board_ship_coins(s);
    const saek_solver *sv = saek_solver_shared(total, s->opt_vikingdice);
    int n = sv ? saek_solver_actions(sv, s, acts, value) : -1;
    if (n < 0) {
        n = p->game->legal(st, player, acts);
        for (int i = 0; i < n; i++) value[i] = -1;
    }
    for (int i = 0; i < n; i++) samples[i] = 0;
    return n;
}

/* opt: chooses the optimal action. */
static int opt_choose(mc_policy *p, const void *st, int player, game_rng *rng) {
    int acts[GAME_MAX_ACTIONS], samples[GAME_MAX_ACTIONS];
    double value[GAME_MAX_ACTIONS];
    int n = opt_analyze(p, st, player, rng, acts, value, samples);
    return mc_best_of(acts, value, n);
}

/* opt: takes no parameters. */
static int opt_init(mc_policy *p, const char *params, char *err, size_t errlen) {
    if (params && *params) {
        snprintf(err, errlen, "policy opt takes no parameters (got '%s')", params);
        return -1;
    }
    p->choose = opt_choose;
    p->analyze = opt_analyze;
    return 0;
}

/* opt: solves the two-player game only. */
static int opt_check_players(int players, char *err, size_t errlen) {
    if (players == 2) return 0;
    snprintf(err, errlen,
             "policy opt is the exact solution of two-player Saekonungr; this game has %d "
             "players (use --players 2)",
             players);
    return -1;
}

static const mc_policy_kind opt_kind = {
    .name = "opt",
    .game = &saek_game,
    .help = "exact optimum (saek, 2 players only)",
    .init = opt_init,
    .check_players = opt_check_players,
};

/* Makes the policy `opt` known to mc_policy_init. */
void saek_solver_register_policy(void) {
    mc_policy_register(&opt_kind);
}
