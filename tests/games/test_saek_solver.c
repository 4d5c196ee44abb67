/* The two-player Saekonungr solver: checked through the engine's own transitions (every state of
 * a small game), against a brute-force value iteration over the generic interface, and by play. */
#include <math.h>
#include <stdlib.h>

#include "engine/games/saek.h"
#include "search/mc.h"
#include "search/saek_solver.h"
#include "selfplay/playout.h"
#include "tests/check.h"

static char err[256];

/* Player 0's win chance of a state by one Bellman step through the engine, using the solver's
 * values of the successors. */
static double backup(const saek_solver *sv, const saek_state *s) {
    int outs[GAME_MAX_ACTIONS];
    double pr[GAME_MAX_ACTIONS];
    if (saek_game.node(s) == GAME_NODE_CHANCE) {
        int n = saek_game.chance(s, outs, pr);
        double v = 0;
        for (int i = 0; i < n; i++) {
            saek_state c = *s;
            saek_game.apply(&c, outs[i]);
            v += pr[i] * saek_solver_value(sv, &c);
        }
        return v;
    }
    int n = saek_game.legal(s, s->to_move, outs);
    double best = s->to_move == 0 ? -1 : 2;
    for (int i = 0; i < n; i++) {
        saek_state c = *s;
        saek_game.apply(&c, outs[i]);
        double v = saek_solver_value(sv, &c);
        if (s->to_move == 0 ? v > best : v < best) best = v;
    }
    return best;
}

/* Every state of the 6-coin game satisfies the Bellman equation of the engine's rules. */
static void test_bellman(void) {
    saek_solver *sv = saek_solver_solve(6, 1, 1e-12);
    CHECK(sv != NULL);
    double worst = 0;
    long states = 0;
    int bad_range = 0;
    for (int ships = 0; ships < 256; ships++)
        for (int lng = 0; lng <= 6; lng++)
            for (int m = 0; m <= 6; m++) {
                int o = 6 - m - lng - __builtin_popcount((unsigned)ships);
                if (o < 0) continue;
                for (int mover = 0; mover < 2; mover++)
                    for (int ph = 0; ph < 6; ph++) {
                        saek_state s;
                        saek_init(&s, 2, "start=0", err, sizeof err);
                        s.ships = (uint8_t)ships;
                        s.longship = (int16_t)lng;
                        s.coins[mover] = (int16_t)m;
                        s.coins[1 - mover] = (int16_t)o;
                        s.to_move = (uint8_t)mover;
                        static const int phases[6] = {SAEK_ROLL, SAEK_VDICE, SAEK_RAID,
                                                      SAEK_RAID, SAEK_RAID,  SAEK_RAID7};
                        s.phase = (uint8_t)phases[ph];
                        s.rolls = (uint8_t)(ph >= 2 && ph <= 4 ? ph - 1 : 2);
                        if (s.phase == SAEK_RAID7 && (s.coins[mover] + 2 > 6)) continue;
                        double v = saek_solver_value(sv, &s);
                        if (v < 0 || v > 1) bad_range++;
                        double b = backup(sv, &s);
                        if (fabs(v - b) > worst) worst = fabs(v - b);
                        states++;
                    }
            }
    CHECK_EQ_INT(bad_range, 0);
    CHECK(states > 10000);
    CHECK(worst < 1e-9);
    printf("Bellman check: %ld states, largest residual %.2e\n", states, worst);
    saek_solver_free(sv);
}

/* ----- brute force over the generic interface ----- */

typedef struct bf_table {
    saek_state *st;
    double *v;
    int *slot;
    int count, cap, hcap;
} bf_table;

/* Hash of a state's bytes. */
static uint64_t bf_hash(const saek_state *s) {
    const unsigned char *b = (const unsigned char *)s;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof *s; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* Index of a state, adding it when new. */
static int bf_find(bf_table *t, const saek_state *s0) {
    saek_state s = *s0;
    s.turns = 0; /* the turn counter is not part of the position */
    uint64_t h = bf_hash(&s);
    for (int i = (int)(h % (uint64_t)t->hcap);; i = (i + 1) % t->hcap) {
        if (t->slot[i] < 0) {
            if (t->count == t->cap) {
                t->cap *= 2;
                t->st = realloc(t->st, (size_t)t->cap * sizeof *t->st);
                t->v = realloc(t->v, (size_t)t->cap * sizeof *t->v);
            }
            t->st[t->count] = s;
            t->v[t->count] = 0.5;
            t->slot[i] = t->count;
            return t->count++;
        }
        if (memcmp(&t->st[t->slot[i]], &s, sizeof s) == 0) return t->slot[i];
    }
}

/* Value iteration over every state reachable from the start of a 2-coin-each game. */
static void test_brute_force(void) {
    bf_table t = {0};
    t.cap = 1024;
    t.hcap = 1 << 20;
    t.st = malloc((size_t)t.cap * sizeof *t.st);
    t.v = malloc((size_t)t.cap * sizeof *t.v);
    t.slot = malloc((size_t)t.hcap * sizeof *t.slot);
    for (int i = 0; i < t.hcap; i++) t.slot[i] = -1;
    saek_state s0;
    saek_init(&s0, 2, "coins=2,maxturns=0", err, sizeof err);
    bf_find(&t, &s0);
    /* explore */
    for (int i = 0; i < t.count; i++) {
        saek_state s = t.st[i];
        if (saek_game.node(&s) == GAME_NODE_TERMINAL) continue;
        int outs[GAME_MAX_ACTIONS];
        int n = saek_game.legal(&s, s.to_move, outs);
        for (int k = 0; k < n; k++) {
            saek_state c = s;
            saek_game.apply(&c, outs[k]);
            bf_find(&t, &c);
        }
    }
    /* iterate */
    for (int sweep = 0; sweep < 100000; sweep++) {
        double delta = 0;
        for (int i = 0; i < t.count; i++) {
            saek_state s = t.st[i];
            double v;
            if (saek_game.node(&s) == GAME_NODE_TERMINAL) {
                double sh[2];
                saek_game.result(&s, sh);
                v = sh[0];
            } else {
                int outs[GAME_MAX_ACTIONS];
                double pr[GAME_MAX_ACTIONS];
                if (saek_game.node(&s) == GAME_NODE_CHANCE) {
                    int n = saek_game.chance(&s, outs, pr);
                    v = 0;
                    for (int k = 0; k < n; k++) {
                        saek_state c = s;
                        saek_game.apply(&c, outs[k]);
                        v += pr[k] * t.v[bf_find(&t, &c)];
                    }
                } else {
                    int n = saek_game.legal(&s, s.to_move, outs);
                    v = s.to_move == 0 ? -1 : 2;
                    for (int k = 0; k < n; k++) {
                        saek_state c = s;
                        saek_game.apply(&c, outs[k]);
                        double x = t.v[bf_find(&t, &c)];
                        if (s.to_move == 0 ? x > v : x < v) v = x;
                    }
                }
            }
            if (fabs(v - t.v[i]) > delta) delta = fabs(v - t.v[i]);
            t.v[i] = v;
        }
        if (delta < 1e-13) break;
    }
    saek_solver *sv = saek_solver_solve(4, 1, 1e-13);
    double exact = saek_solver_value(sv, &s0);
    printf("brute force: %d states, start value %.10f, solver %.10f\n", t.count, t.v[0], exact);
    CHECK(t.count > 1000);
    CHECK(fabs(exact - t.v[0]) < 1e-8);
    /* and at every reachable state */
    double worst = 0;
    for (int i = 0; i < t.count; i++) {
        double x = saek_solver_value(sv, &t.st[i]);
        if (fabs(x - t.v[i]) > worst) worst = fabs(x - t.v[i]);
    }
    CHECK(worst < 1e-8);
    saek_solver_free(sv);
    free(t.st);
    free(t.v);
    free(t.slot);
}

/* The optimum beats random decisions, significantly (fixed seed). */
static void test_play(void) {
    playout_config cfg = {.game = &saek_game,
                          .players = 2,
                          .options = "coins=5",
                          .policy = {"opt", "random"},
                          .games = 4000,
                          .seed = 11,
                          .threads = 2};
    playout_stats st;
    CHECK_EQ_INT(playout_run(&cfg, &st, err, sizeof err), 0);
    double m, lo, hi;
    playout_interval(&st.slot[0], &m, &lo, &hi);
    printf("opt vs random (5 coins): %.4f [%.4f, %.4f]\n", m, lo, hi);
    CHECK(lo > 0.5);
    playout_stats_free(&st);
    /* the opt policy's choice has the best solver value */
    const saek_solver *sv = saek_solver_shared(10, 1);
    saek_state s;
    CHECK_EQ_INT(
        saek_game.parse(&s, "coins=5,3 ships=4,5 long=0 phase=vdice vikingdice=1", err, sizeof err),
        0);
    int acts[GAME_MAX_ACTIONS];
    double val[GAME_MAX_ACTIONS];
    int n = saek_solver_actions(sv, &s, acts, val);
    CHECK_EQ_INT(n, 3);
    mc_policy p;
    CHECK_EQ_INT(mc_policy_init(&p, &saek_game, "opt", err, sizeof err), 0);
    game_rng r;
    rng_seed(&r, 1);
    int c = mc_choose(&p, &s, 0, &r);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (val[i] > val[best]) best = i;
    CHECK_EQ_INT(c, acts[best]);
    mc_policy_done(&p);
}

/* Runs the solver tests. */
int main(void) {
    saek_solver_register_policy();
    test_bellman();
    test_brute_force();
    test_play();
    return check_done();
}
