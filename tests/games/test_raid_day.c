/* The abstract raid day: rules of the model, invariants over random games, policies. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine/games/raid.h"
#include "engine/games/raid_combat.h"
#include "search/mc.h"

/* Returns the food value of player p's herd. */
static int food_of(const raid_state *s, int p) {
    raid_herd h;
    for (int a = 0; a < RAID_ANIMAL_NB; a++) h.n[a] = s->pl[p].herd[a];
    return raid_herd_food(&h);
}

/* Checks the state invariants the header promises. */
static int invariants_hold(const raid_state *s) {
    for (int p = 0; p < s->np; p++) {
        const raid_player *pl = &s->pl[p];
        raid_herd h;
        for (int a = 0; a < RAID_ANIMAL_NB; a++) h.n[a] = pl->herd[a];
        if (pl->coins < 0) return 0;
        if (raid_herd_food(&h) < pl->villagers + pl->home + pl->party) return 0;
        if (raid_herd_count(&h) > RAID_TEND * pl->villagers) return 0;
        if (pl->out && (pl->home || pl->party || pl->leader || pl->son)) return 0;
    }
    return 1;
}

/* Options and player counts the game refuses, with the reason named. */
static void test_init(void) {
    raid_state s;
    char err[200];
    CHECK(raid_day_init(&s, 2, NULL, err, sizeof err) < 0 && strstr(err, "3 to"));
    CHECK(raid_day_init(&s, 7, NULL, err, sizeof err) < 0);
    CHECK(raid_day_init(&s, 4, "seasn=1", err, sizeof err) < 0 && strstr(err, "seasn"));
    CHECK(raid_day_init(&s, 4, "spacing=0", err, sizeof err) < 0 && strstr(err, "spacing"));
    CHECK(raid_day_init(&s, 4, "season=2,spacing=12,near=50", err, sizeof err) == 0);
    CHECK_EQ_INT(s.hours, 12);
    CHECK_EQ_INT(s.pl[3].coins, RAID_START_COINS);
    CHECK(raid_day_init(&s, 3, NULL, err, sizeof err) == 0);
    CHECK_EQ_INT(raid_game.node(&s), GAME_NODE_CHANCE);
    /* the season: D6 1-4 gives 10 hours, 5-6 gives 12 */
    int out[GAME_MAX_ACTIONS];
    double p[GAME_MAX_ACTIONS];
    int n = raid_game.chance(&s, out, p);
    CHECK_EQ_INT(n, 2);
    CHECK(out[0] == 10 && fabs(p[0] - 4 / 6.0) < 1e-12);
    CHECK(out[1] == 12 && fabs(p[1] - 2 / 6.0) < 1e-12);
    /* starting wealth: two Diamonds, 0..26, mean 13 */
    raid_game.apply(&s, 10);
    raid_game.apply(&s, 1); /* player 1 starts */
    CHECK_EQ_INT(s.phase, RAID_PH_WEALTH);
    CHECK_EQ_INT(s.cur, 1);
    n = raid_game.chance(&s, out, p);
    double tot = 0, mean = 0;
    for (int i = 0; i < n; i++) tot += p[i], mean += p[i] * out[i];
    CHECK_EQ_INT(n, 27);
    CHECK(fabs(tot - 1) < 1e-12 && fabs(mean - 13) < 1e-12);
    /* buying: the cost of leader and son kits, warriors, villager and herd */
    raid_game.apply(&s, 8);             /* 38 coins */
    int cost = raid_day_buy_cost(0, 4); /* 10 leaders + 4*(2+1) upkeep/food + villager 3 + 4*2 */
    CHECK_EQ_INT(cost, 10 + 4 * 3 + 3 + 4 * 2);
    n = raid_game.legal(&s, 1, out);
    int found = 0;
    for (int i = 0; i < n; i++) {
        CHECK(raid_day_buy_cost(out[i] / 32, out[i] % 32) <= 38);
        if (out[i] == 4) found = 1;
    }
    CHECK(found);
    raid_game.apply(&s, 4);
    CHECK_EQ_INT(s.pl[1].coins, 38 - cost);
    CHECK_EQ_INT(s.pl[1].home, 4);
    CHECK_EQ_INT(s.pl[1].villagers, 1);
    CHECK_EQ_INT(food_of(&s, 1), 5);
    CHECK(invariants_hold(&s));
    /* the war chest: coins + herd + villagers + warriors with kits */
    CHECK_EQ_INT(raid_day_chest(&s, 1), s.pl[1].coins + 5 + 1 + 4 * (1 + 2));
}

/* Builds a state in the ACTION phase with given home warriors for every player. */
static void setup(raid_state *s, int np, const int *home) {
    char err[200];
    raid_day_init(s, np, "season=1", err, sizeof err);
    raid_game.apply(s, 0); /* player 0 starts */
    for (int p = 0; p < np; p++) {
        raid_game.apply(s, 13);          /* wealth */
        raid_game.apply(s, home[p] * 1); /* kit 0, home[p] warriors */
    }
    CHECK_EQ_INT(s->phase, RAID_PH_DIAMOND);
}

/* A raid on an undefended settlement: son and leader fall, the settlement is captured. */
static void test_capture(void) {
    raid_state s;
    int home[3] = {4, 0, 2};
    setup(&s, 3, home);
    raid_game.apply(&s, 5); /* Diamond 5 */
    CHECK_EQ_INT(s.pl[0].coins, 43 - raid_day_buy_cost(0, 4) + 5);
    raid_game.apply(&s, 12); /* Clubs: 12 inches */
    CHECK_EQ_INT(s.phase, RAID_PH_ACTION);
    raid_game.apply(&s, RAID_ACT_RAID + 1); /* 24 inches away: not there yet */
    CHECK_EQ_INT(s.pl[0].party, 4);
    CHECK_EQ_INT(s.pl[0].dist, 12);
    /* play on to player 0's next move with quiet cards */
    while (!(s.cur == 0 && s.phase == RAID_PH_CLUB)) {
        int out[GAME_MAX_ACTIONS];
        if (raid_game.node(&s) == GAME_NODE_DECISION) {
            raid_game.apply(&s, RAID_ACT_WAIT);
        } else {
            int n = raid_game.legal(&s, 0, out);
            raid_game.apply(&s,
                            s.phase == RAID_PH_DIAMOND || s.phase == RAID_PH_CLUB ? 3 : out[n - 1]);
        }
    }
    raid_game.apply(&s, 12);
    raid_game.apply(&s, RAID_ACT_WAIT);
    CHECK_EQ_INT(s.phase, RAID_PH_FIGHT);
    /* the fight odds are the exact melee odds, axe-and-dagger (long move) against the son */
    int out[GAME_MAX_ACTIONS];
    double p[GAME_MAX_ACTIONS];
    int n = raid_game.chance(&s, out, p);
    raid_kit a, d;
    char err[100];
    raid_kit_parse(raid_day_kit[0], &a, err, sizeof err);
    raid_kit_parse(raid_day_kit[RAID_DAY_LEADER_KIT], &d, err, sizeof err);
    raid_melee_opts o = {0};
    o.moved = 1;
    raid_duel du;
    raid_fight f;
    raid_melee_duel(&du, &a, &d, &o);
    raid_duel_solve(&du, &f);
    CHECK_EQ_INT(n, 3);
    CHECK(fabs(p[0] - f.p[RAID_END_A_KILLS] - f.p[RAID_END_D_SURRENDERS]) < 1e-12);
    CHECK(fabs(p[0] + p[1] + p[2] - 1) < 1e-12);
    int before = raid_day_chest(&s, 0);
    raid_game.apply(&s, 1); /* the son wins the first fight */
    CHECK_EQ_INT(s.pl[0].party, 3);
    CHECK_EQ_INT(s.pl[1].captured, raid_kit_weapon_value(&a));
    raid_game.apply(&s, 0); /* the son dies */
    CHECK_EQ_INT(s.pl[1].son, 0);
    CHECK_EQ_INT(s.pl[0].bonus, RAID_KILL_SON);
    raid_game.apply(&s, 0); /* the leader dies: the settlement is controlled */
    CHECK_EQ_INT(s.pl[1].out, 1);
    CHECK_EQ_INT(s.pl[0].bonus, RAID_KILL_SON + RAID_KILL_LEADER);
    CHECK_EQ_INT(s.phase, RAID_PH_LOOT);
    CHECK_EQ_INT(food_of(&s, 1), 0);
    CHECK_EQ_INT(food_of(&s, 0), 5 + 1); /* both herds */
    raid_game.apply(&s, 20);             /* two Diamonds */
    CHECK_EQ_INT(s.pl[0].target, RAID_TGT_HOME);
    /* chest change: -1 warrior (1 + 2), +2 weapons of the son and the leader, +15, + herd 1,
     * + 20 coins; a villager kept costs a coin and adds a coin */
    CHECK_EQ_INT(raid_day_chest(&s, 0) - before, -3 + 2 * raid_kit_weapon_value(&d) + 15 + 1 + 20);
    CHECK(invariants_hold(&s));
    /* an eliminated player is skipped and cannot be raided */
    n = raid_game.legal(&s, 0, out);
    while (raid_game.node(&s) != GAME_NODE_TERMINAL) {
        if (s.phase == RAID_PH_ACTION) {
            n = raid_game.legal(&s, s.cur, out);
            for (int i = 0; i < n; i++) CHECK(out[i] != RAID_ACT_RAID + 1);
            CHECK(s.cur != 1);
        }
        n = raid_game.legal(&s, s.cur, out);
        raid_game.apply(&s, out[0]);
    }
}

/* The plague: a Joker in Diamonds lets the player choose the settlement; the D10 picks the kind. */
static void test_plague(void) {
    raid_state s;
    int home[3] = {2, 6, 2};
    setup(&s, 3, home);
    raid_game.apply(&s, 0); /* Joker of Diamonds */
    CHECK_EQ_INT(s.phase, RAID_PH_PLAGUE);
    int out[GAME_MAX_ACTIONS];
    int n = raid_game.legal(&s, 0, out);
    CHECK_EQ_INT(n, 2); /* settlements 1 and 2 */
    raid_game.apply(&s, 1);
    CHECK_EQ_INT(s.phase, RAID_PH_PLAGUE_ROLL);
    /* find the kind that feeds most of player 1 and roll it */
    int best = 1, bestfood = -1;
    for (int d = 1; d <= 10; d++) {
        int k = raid_plague_animal(d);
        int f = s.pl[1].herd[k] * raid_animal_price((raid_animal)k);
        if (f > bestfood) bestfood = f, best = d;
    }
    int food = food_of(&s, 1), men = s.pl[1].home + s.pl[1].villagers;
    CHECK_EQ_INT(food, men);
    raid_game.apply(&s, best);
    CHECK_EQ_INT(food_of(&s, 1), food - bestfood);
    CHECK(invariants_hold(&s));
    CHECK(s.pl[1].home < 6);
    CHECK_EQ_INT(s.phase, RAID_PH_CLUB);
}

/* Wild beasts: a Joker in Clubs, the D6 kind, the placement, then an attack after the turn. */
static void test_beast(void) {
    raid_state s;
    int home[3] = {2, 3, 2};
    setup(&s, 3, home);
    raid_game.apply(&s, 4);
    raid_game.apply(&s, 0); /* Joker of Clubs */
    CHECK_EQ_INT(s.phase, RAID_PH_BEAST_KIND);
    int out[GAME_MAX_ACTIONS];
    double p[GAME_MAX_ACTIONS];
    int n = raid_game.chance(&s, out, p);
    CHECK_EQ_INT(n, 4);
    CHECK(fabs(p[RAID_BOAR] - 2 / 6.0) < 1e-12 && fabs(p[RAID_TROLL] - 1 / 6.0) < 1e-12);
    raid_game.apply(&s, RAID_TROLL);
    raid_game.apply(&s, 2); /* near settlement 2 */
    CHECK_EQ_INT(s.beast_at, 2);
    raid_game.apply(&s, RAID_ACT_WAIT);
    CHECK_EQ_INT(s.phase, RAID_PH_BEAST_ATTACK);
    n = raid_game.chance(&s, out, p);
    double near = 0.9 * 0.33; /* stays (90%), comes within 3" (33%) */
    CHECK(fabs(p[1] - near * 78 / 196.0) < 1e-12);
    CHECK(fabs(p[2] - 0.10) < 1e-12);
    raid_game.apply(&s, 1); /* a warrior at settlement 2 is torn apart */
    CHECK_EQ_INT(s.pl[2].home, 1);
    CHECK(invariants_hold(&s));
    CHECK_EQ_INT(s.cur, 1);
}

/* Random games: chance distributions, legal actions and invariants at every step; the same
 * seed gives the same games. */
static void test_random_games(void) {
    double sum[2] = {0, 0};
    long bad_p = 0, bad_inv = 0, steps = 0, over = 0;
    for (int run = 0; run < 2; run++) {
        game_rng rng;
        rng_seed(&rng, 99);
        for (int g = 0; g < 300; g++) {
            raid_state s;
            char err[100];
            raid_day_init(&s, 3 + g % 4, g % 3 ? NULL : "berserk=1", err, sizeof err);
            int guard = 0;
            while (raid_game.node(&s) != GAME_NODE_TERMINAL && guard++ < 100000) {
                int out[GAME_MAX_ACTIONS];
                double p[GAME_MAX_ACTIONS];
                if (raid_game.node(&s) == GAME_NODE_CHANCE) {
                    int n = raid_game.chance(&s, out, p);
                    double t = 0;
                    for (int i = 0; i < n; i++) {
                        if (p[i] < -1e-12) bad_p++;
                        t += p[i];
                    }
                    if (n < 1 || fabs(t - 1) > 1e-9) bad_p++;
                } else if (raid_game.legal(&s, s.cur, out) < 1) {
                    bad_p++;
                }
                game_step_random(&raid_game, &s, &rng);
                if (!invariants_hold(&s)) bad_inv++;
                steps++;
            }
            if (raid_game.node(&s) == GAME_NODE_TERMINAL) over++;
            CHECK(s.hours == 10 || s.hours == 12);
            double pts[GAME_MAX_PLAYERS], share[GAME_MAX_PLAYERS], t = 0;
            raid_game.points(&s, pts);
            raid_game.result(&s, share);
            for (int q = 0; q < s.np; q++) sum[run] += pts[q], t += share[q];
            CHECK(fabs(t - 1) < 1e-12);
            /* format and parse give back the same state */
            char buf[4096];
            raid_state back;
            raid_game.format(&s, buf, sizeof buf);
            CHECK(raid_game.parse(&back, buf, err, sizeof err) == 0);
            CHECK(memcmp(&back, &s, sizeof s) == 0);
        }
    }
    CHECK_EQ_INT(bad_p, 0);
    CHECK_EQ_INT(bad_inv, 0);
    CHECK_EQ_INT(over, 600);
    CHECK(steps > 0);
    CHECK(sum[0] == sum[1]);
    char err[100];
    raid_state s;
    CHECK(raid_game.parse(&s, "raid:00", err, sizeof err) < 0);
}

/* Plays `games` games of policy spec A in one seat against B in the others; returns A's mean
 * win share and writes its standard error. */
static double duel_policies(const char *a, const char *b, int games, double *se) {
    mc_policy pa, pb;
    char err[200];
    CHECK(mc_policy_init(&pa, &raid_game, a, err, sizeof err) == 0);
    CHECK(mc_policy_init(&pb, &raid_game, b, err, sizeof err) == 0);
    double w = 0, w2 = 0;
    for (int g = 0; g < games; g++) {
        game_rng rng;
        rng_seed(&rng, rng_derive(2024, (uint64_t)g));
        raid_state s;
        raid_day_init(&s, 4, NULL, err, sizeof err);
        mc_policy *seat[4] = {&pb, &pb, &pb, &pb};
        seat[g % 4] = &pa;
        while (!mc_step(seat, &raid_game, &s, &rng)) {
        }
        double share[4];
        raid_game.result(&s, share);
        w += share[g % 4];
        w2 += share[g % 4] * share[g % 4];
    }
    mc_policy_done(&pa);
    mc_policy_done(&pb);
    double m = w / games;
    *se = sqrt((w2 / games - m * m) / games);
    return m;
}

/* The heuristic and flat Monte-Carlo beat random players with significance (fixed seeds). */
static void test_policies(void) {
    double se;
    double m = duel_policies("heur", "random", 2000, &se);
    fprintf(stderr, "heur against 3 random: %.4f +- %.4f\n", m, 1.96 * se);
    CHECK(m - 3 * se > 0.25);
    m = duel_policies("flat:n=8,rollout=heur", "random", 200, &se);
    fprintf(stderr, "flat:n=8,rollout=heur against 3 random: %.4f +- %.4f\n", m, 1.96 * se);
    CHECK(m - 2 * se > 0.25);
}

int main(void) {
    test_init();
    test_capture();
    test_plague();
    test_beast();
    test_random_games();
    test_policies();
    return check_done();
}
