/*
 * The tafl variants as games of the generic interface (engine/tafl_def.h): random games played
 * through the interface and through struct tafl_game side by side agree on every legal move list
 * and every status, repetition included; the STATE text reads back; the Monte-Carlo policies and
 * the playout harness play them.
 */
#include <stdbool.h>
#include <string.h>

#include "engine/notation.h"
#include "engine/tafl.h"
#include "engine/tafl_def.h"
#include "engine/variant.h"
#include "search/mc.h"
#include "selfplay/playout.h"
#include "tests/check.h"

/* Sorts moves ascending (insertion sort: lists are short). */
static void sort_moves(int *a, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            int t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* Tells whether the interface state and the game agree on moves and status; false after a
   reported difference. */
static bool agree(const game_def *g, const void *st, const struct tafl_game *t) {
    const struct tafl_def_state *s = st;
    int acts[GAME_MAX_ACTIONS], want[GAME_MAX_ACTIONS];
    move_t moves[MAX_MOVES];
    int n = g->legal(st, g->to_move(st), acts);
    int m = tafl_legal_moves(t, moves);
    for (int j = 0; j < m; j++) want[j] = moves[j];
    sort_moves(acts, n);
    sort_moves(want, m);
    bool capped = s->ply >= s->max_plies && t->result == RESULT_NONE; /* a draw by the limit */
    bool same = s->pos.key == tafl_pos(t)->key &&
                (capped ? s->result == RESULT_DRAW && n == 0
                        : s->result == t->result && n == m &&
                              memcmp(acts, want, (size_t)n * sizeof *acts) == 0);
    if (!check_record(same, __FILE__, __LINE__, "interface and struct tafl_game agree"))
        fprintf(stderr, "    ply %d: %d moves against %d, result %d against %d\n", s->ply, n, m,
                s->result, t->result);
    return same;
}

/* Plays random games of game i both ways. */
static void compare_games(int i, int games, uint64_t seed) {
    const game_def *g = &tafl_def_games[i];
    const struct variant *v = variant_builtin(i);
    struct tafl_game *t = tafl_new(v);
    game_buffer st;
    game_rng rng;
    rng_seed(&rng, seed);
    char err[200];
    for (int k = 0; k < games; k++) {
        if (g->init(st.bytes, 2, "plies=300", err, sizeof err) != 0) {
            CHECK(!"init");
            break;
        }
        struct position start;
        pos_init_start(&start, v);
        tafl_reset(t, &start);
        while (agree(g, st.bytes, t) && g->node(st.bytes) != GAME_NODE_TERMINAL) {
            int acts[GAME_MAX_ACTIONS];
            int n = g->legal(st.bytes, g->to_move(st.bytes), acts);
            int a = acts[rng_below(&rng, (uint32_t)n)];
            g->apply(st.bytes, a);
            tafl_play(t, (move_t)a);
        }
    }
    tafl_free(t);
}

/* A position that comes a third time ends the game by the variant's repetition rule. */
static void test_repetition(void) {
    const game_def *g = game_find("brandubh");
    struct tafl_game *t = tafl_new(variant_by_name("brandubh"));
    game_buffer st;
    char err[200];
    CHECK_EQ_INT(g->init(st.bytes, 2, NULL, err, sizeof err), 0);
    /* d1-e1, d3-c3, e1-d1, c3-d3: back at the start, twice */
    static const char *const line[] = {"d1e1", "d3c3", "e1d1", "c3d3",
                                       "d1e1", "d3c3", "e1d1", "c3d3"};
    for (int k = 0; k < 8 && agree(g, st.bytes, t); k++) {
        CHECK_EQ_INT(g->node(st.bytes), GAME_NODE_DECISION);
        move_t m;
        CHECK(move_parse_legal(tafl_pos(t), line[k], &m, err, sizeof err));
        g->apply(st.bytes, m);
        tafl_play(t, m);
    }
    const struct tafl_def_state *s = (const void *)st.bytes;
    CHECK(agree(g, st.bytes, t));
    CHECK_EQ_INT(g->node(st.bytes), GAME_NODE_TERMINAL);
    CHECK_EQ_INT(s->reason, END_REPETITION);
    CHECK_EQ_INT(s->result, RESULT_ATTACKERS); /* Brandubh: the defenders lose by repeating */
    tafl_free(t);
}

/* Every variant: the interface agrees with struct tafl_game over random games. */
static void test_agree(void) {
    for (int i = 0; i < TAFL_DEF_GAMES; i++) {
        CHECK(game_find(variant_builtin(i)->name) == &tafl_def_games[i]);
        compare_games(i, 20, 0x7AF1 + (uint64_t)i);
    }
}

/* The STATE text reads back to the same position, ply and limit; bad texts are refused. */
static void test_text(void) {
    const game_def *g = game_find("brandubh");
    game_buffer a, b;
    char err[200], text[300], again[300];
    CHECK_EQ_INT(g->init(a.bytes, 2, NULL, err, sizeof err), 0);
    g->apply(a.bytes, move_make(3, 5)); /* d1-f1 */
    g->format(a.bytes, text, sizeof text);
    CHECK_EQ_STR(text, "board=3a3/3a3/3d3/aadkdaa/3d3/3a3/5a1 side=d ply=1 plies=440");
    CHECK_EQ_INT(g->parse(b.bytes, text, err, sizeof err), 0);
    g->format(b.bytes, again, sizeof again);
    CHECK_EQ_STR(again, text);
    CHECK(g->parse(b.bytes, "board=3a3 side=a", err, sizeof err) < 0 && strstr(err, "FEN"));
    CHECK(g->parse(b.bytes, "side=a", err, sizeof err) < 0 && strstr(err, "board="));
    CHECK(g->parse(b.bytes, "board=7/7/7/3k3/7/7/7 side=a ply=x", err, sizeof err) < 0 &&
          strstr(err, "ply=x"));
    CHECK(g->parse(b.bytes, "colour=red", err, sizeof err) < 0 && strstr(err, "colour"));
    CHECK(g->init(a.bytes, 3, NULL, err, sizeof err) < 0 && strstr(err, "2 players"));
    CHECK(g->init(a.bytes, 2, "plies=0", err, sizeof err) < 0 && strstr(err, "plies"));
    CHECK(g->init(a.bytes, 2, "depth=3", err, sizeof err) < 0 && strstr(err, "depth"));
    char name[16];
    g->action_text(a.bytes, 0, move_make(3, 5), name, sizeof name);
    CHECK_EQ_STR(name, "d1f1");
    /* a one-ply limit: the game is a draw after the first move */
    CHECK_EQ_INT(g->init(a.bytes, 2, "plies=1", err, sizeof err), 0);
    g->apply(a.bytes, move_make(3, 5));
    double share[2];
    CHECK_EQ_INT(g->node(a.bytes), GAME_NODE_TERMINAL);
    g->result(a.bytes, share);
    CHECK(share[0] == 0.5 && share[1] == 0.5);
}

/* The policies and the harness play tafl: flat Monte-Carlo beats random at Brandubh. */
static void test_policies(void) {
    char err[200];
    playout_config cfg = {.game = game_find("brandubh"),
                          .players = 2,
                          .policy = {"flat:n=8", "random"},
                          .games = 16,
                          .seed = 5,
                          .threads = 2};
    playout_stats st;
    if (playout_run(&cfg, &st, err, sizeof err) != 0) {
        CHECK(!"playout_run");
        return;
    }
    double mean, lo, hi;
    playout_interval(&st.slot[0], &mean, &lo, &hi);
    printf("brandubh flat:n=8 vs random: %.3f [%.3f, %.3f]\n", mean, lo, hi);
    CHECK(mean > 0.6);
    playout_stats_free(&st);
    mc_policy p;
    CHECK_EQ_INT(mc_policy_init(&p, game_find("copenhagen"), "ismcts:iters=50", err, sizeof err),
                 0);
    game_buffer s;
    game_rng rng;
    rng_seed(&rng, 9);
    CHECK_EQ_INT(p.game->init(s.bytes, 2, NULL, err, sizeof err), 0);
    int a = mc_choose(&p, s.bytes, 0, &rng);
    int acts[GAME_MAX_ACTIONS], n = p.game->legal(s.bytes, 0, acts), found = 0;
    for (int i = 0; i < n; i++) found |= acts[i] == a;
    CHECK(found);
    mc_policy_done(&p);
}

/* Runs the tests. */
int main(void) {
    test_agree();
    test_repetition();
    test_text();
    test_policies();
    return check_done();
}
