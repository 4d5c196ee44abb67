/* Policies (spec parsing, legality, strength with fixed seeds) and the playout harness
 * (reproducibility across thread counts, seat rotation, intervals). */
#include <math.h>
#include <stdlib.h>

#include "bench/playout_bench.h"
#include "engine/games/eketorp.h"
#include "engine/games/saek.h"
#include "search/mc.h"
#include "search/saek_solver.h"
#include "selfplay/playout.h"
#include "tests/check.h"

static char err[256];

/* Returns 1 when building the policy fails with a message containing `word`. */
static int spec_fails(const game_def *g, const char *spec, const char *word) {
    mc_policy p;
    err[0] = '\0';
    if (mc_policy_init(&p, g, spec, err, sizeof err) == 0) {
        mc_policy_done(&p);
        return 0;
    }
    if (!strstr(err, word)) fprintf(stderr, "message '%s' lacks '%s'\n", err, word);
    return strstr(err, word) != NULL;
}

/* Policy specs: the good ones build, the bad ones are refused with the bad part named. */
static void test_specs(void) {
    const char *good[] = {"random",
                          "heur",
                          "flat",
                          "flat:n=5",
                          "flat:n=5,rollout=heur",
                          "ismcts",
                          "uct:iters=10,c=1.5",
                          "ismcts:rollout=random"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        mc_policy p;
        CHECK_EQ_INT(mc_policy_init(&p, &saek_game, good[i], err, sizeof err), 0);
        mc_policy_done(&p);
    }
    CHECK(spec_fails(&saek_game, "bogus", "bogus"));
    CHECK(spec_fails(&saek_game, "", "empty"));
    CHECK(spec_fails(&saek_game, "flat:n=0", "n=0"));
    CHECK(spec_fails(&saek_game, "flat:n=abc", "n=abc"));
    CHECK(spec_fails(&saek_game, "flat:iters=5", "iters"));
    CHECK(spec_fails(&saek_game, "ismcts:c=-1", "c=-1"));
    CHECK(spec_fails(&saek_game, "ismcts:rollout=smart", "smart"));
    CHECK(spec_fails(&saek_game, "ismcts:iters", "iters"));
    CHECK(spec_fails(&saek_game, "random:n=3", "no parameters"));
    CHECK(spec_fails(&ekt_game, "opt", "saek"));
}

/* Every policy returns a legal action at every decision of random games of both games. */
static void test_legal_choices(void) {
    const char *specs[] = {"random", "heur", "flat:n=1", "ismcts:iters=8"};
    const game_def *games[] = {&saek_game, &ekt_game};
    int illegal = 0, asked = 0;
    for (int gi = 0; gi < 2; gi++)
        for (int si = 0; si < 4; si++) {
            const game_def *g = games[gi];
            mc_policy p;
            mc_policy_init(&p, g, specs[si], err, sizeof err);
            game_buffer b;
            g->init(b.bytes, g == &saek_game ? 3 : 4, NULL, err, sizeof err);
            game_rng r;
            rng_seed(&r, (uint64_t)(gi * 10 + si));
            for (int steps = 0; steps < (si >= 2 ? 300 : 3000); steps++) {
                int kind = g->node(b.bytes);
                if (kind == GAME_NODE_TERMINAL) break;
                if (kind != GAME_NODE_CHANCE) {
                    int np = g->players(b.bytes);
                    for (int q = 0; q < np; q++) {
                        if (kind == GAME_NODE_DECISION && q != g->to_move(b.bytes)) continue;
                        int acts[GAME_MAX_ACTIONS];
                        int n = g->legal(b.bytes, q, acts);
                        if (n <= 0) continue;
                        int a = mc_choose(&p, b.bytes, q, &r);
                        int ok = 0;
                        for (int i = 0; i < n; i++) ok |= acts[i] == a;
                        illegal += !ok;
                        asked++;
                    }
                }
                game_step_random(g, b.bytes, &r);
            }
            mc_policy_done(&p);
        }
    CHECK(asked > 500);
    CHECK_EQ_INT(illegal, 0);
}

/* Same seed, same result, whatever the thread count; slots rotate through the seats. */
static void test_reproducible(void) {
    playout_config cfg = {.game = &saek_game,
                          .players = 3,
                          .policy = {"random", "heur", "random"},
                          .games = 600,
                          .seed = 99};
    playout_stats a, b, c;
    cfg.threads = 1;
    CHECK_EQ_INT(playout_run(&cfg, &a, err, sizeof err), 0);
    cfg.threads = 2;
    CHECK_EQ_INT(playout_run(&cfg, &b, err, sizeof err), 0);
    cfg.threads = 5;
    CHECK_EQ_INT(playout_run(&cfg, &c, err, sizeof err), 0);
    CHECK(memcmp(a.slot, b.slot, sizeof a.slot) == 0);
    CHECK(memcmp(a.seat, c.seat, sizeof a.seat) == 0);
    CHECK(memcmp(a.length_hist, c.length_hist, (PLAYOUT_LENGTH_MAX + 1) * sizeof(int64_t)) == 0);
    CHECK_EQ_INT(a.length_sum, b.length_sum);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(a.slot[k].games, 600);
        CHECK_EQ_INT(a.seat[k].games, 600);
    }
    /* shares sum to one game per game */
    int64_t sum = 0;
    for (int k = 0; k < 3; k++) sum += a.slot[k].win;
    CHECK_EQ_INT(sum, 600LL * PLAYOUT_SHARE_UNIT);
    /* a different seed gives different games */
    cfg.seed = 100;
    playout_stats d;
    CHECK_EQ_INT(playout_run(&cfg, &d, err, sizeof err), 0);
    CHECK(a.length_sum != d.length_sum);
    /* the interval holds the mean and narrows with more games */
    double m, lo, hi;
    playout_interval(&a.slot[0], &m, &lo, &hi);
    CHECK(lo <= m && m <= hi && hi - lo < 0.1 && hi - lo > 0.01);
    /* output formats carry the numbers */
    FILE *f = tmpfile();
    playout_write_json(f, &cfg, &a);
    playout_write_csv(f, &cfg, &a);
    rewind(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CHECK(strstr(text, "\"game\": \"saek\"") != NULL);
    CHECK(strstr(text, "kind,index,policy") != NULL);
    playout_stats_free(&a);
    playout_stats_free(&b);
    playout_stats_free(&c);
    playout_stats_free(&d);
    /* bad runs are refused with a message */
    cfg.policy[1] = "flat:n=-3";
    CHECK(playout_run(&cfg, &a, err, sizeof err) != 0);
    CHECK(strstr(err, "n=-3") != NULL);
    cfg.policy[1] = "random";
    cfg.players = 7;
    CHECK(playout_run(&cfg, &a, err, sizeof err) != 0);
    cfg.players = 3;
    cfg.options = "coins=0";
    CHECK(playout_run(&cfg, &a, err, sizeof err) != 0);
    CHECK(strstr(err, "coins") != NULL);
}

/* Policies beat random play with significance (fixed seeds). */
static void test_strength(void) {
    playout_stats st;
    double m, lo, hi;
    /* Saekonungr: the heuristic against random, two players */
    playout_config cfg = {.game = &saek_game,
                          .players = 2,
                          .policy = {"heur", "random"},
                          .games = 6000,
                          .seed = 5,
                          .threads = 2};
    CHECK_EQ_INT(playout_run(&cfg, &st, err, sizeof err), 0);
    playout_interval(&st.slot[0], &m, &lo, &hi);
    printf("saek heur vs random: %.4f [%.4f, %.4f]\n", m, lo, hi);
    CHECK(lo > 0.5);
    playout_stats_free(&st);
    /* Eketorp: information-set MCTS against two random players (chance: 1/3) */
    playout_config e = {.game = &ekt_game,
                        .players = 3,
                        .policy = {"ismcts:iters=30", "random", "random"},
                        .games = 60,
                        .seed = 5,
                        .threads = 2};
    CHECK_EQ_INT(playout_run(&e, &st, err, sizeof err), 0);
    playout_interval(&st.slot[0], &m, &lo, &hi);
    printf("eketorp ismcts:iters=30 vs 2 random: %.4f [%.4f, %.4f]\n", m, lo, hi);
    CHECK(lo > 1.0 / 3);
    playout_stats_free(&st);
    /* Eketorp: the heuristic against three random players */
    playout_config h = {.game = &ekt_game,
                        .players = 4,
                        .policy = {"heur", "random", "random", "random"},
                        .games = 400,
                        .seed = 5,
                        .threads = 2};
    CHECK_EQ_INT(playout_run(&h, &st, err, sizeof err), 0);
    playout_interval(&st.slot[0], &m, &lo, &hi);
    printf("eketorp heur vs 3 random: %.4f [%.4f, %.4f]\n", m, lo, hi);
    CHECK(lo > 0.25);
    playout_stats_free(&st);
}

/* The bench plays the same games through the fast path and the generic interface. */
static void test_bench(void) {
    playout_bench_result a, b;
    CHECK_EQ_INT(playout_bench_run(&saek_game, 4, NULL, 1, 0, 500, 3, &a, err, sizeof err), 0);
    CHECK_EQ_INT(playout_bench_run(&saek_game, 4, NULL, 0, 0, 500, 3, &b, err, sizeof err), 0);
    CHECK_EQ_INT(a.games, 500);
    CHECK_EQ_U64(a.checksum, b.checksum);
    CHECK_EQ_INT(a.length, b.length);
    CHECK_EQ_INT(playout_bench_run(&ekt_game, 4, NULL, 1, 0, 300, 3, &a, err, sizeof err), 0);
    CHECK_EQ_INT(playout_bench_run(&ekt_game, 4, NULL, 0, 0, 300, 3, &b, err, sizeof err), 0);
    CHECK_EQ_U64(a.checksum, b.checksum);
    CHECK(playout_bench_run(&ekt_game, 2, NULL, 0, 0, 5, 3, &a, err, sizeof err) != 0);
}

/* Runs the policy and harness tests. */
int main(void) {
    saek_solver_register_policy();
    test_specs();
    test_legal_choices();
    test_reproducible();
    test_strength();
    test_bench();
    return check_done();
}
