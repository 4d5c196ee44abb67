/* Viking Raid combat: each rule against hand-computed odds, and exact odds against sampling. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine/games/raid_combat.h"

/* Returns 1 when |a - b| is below 1e-12. */
static int near(double a, double b) {
    return fabs(a - b) < 1e-12;
}

/* Parses a kit that must be legal. */
static raid_kit kit_of(const char *text) {
    raid_kit k;
    char err[200];
    int rc = raid_kit_parse(text, &k, err, sizeof err);
    if (rc) fprintf(stderr, "kit %s: %s\n", text, err);
    CHECK(rc == 0);
    return k;
}

/* Equipment modifiers, the hand rules and the carrying limits. */
static void test_kits(void) {
    raid_kit k;
    char err[200];
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("sword")}), 1);
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("chain,helmet,sword,shield")}), 5);
    /* the text's +6 example: helmet, chain mail, shield, long axe (the spare sword not counted) */
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("helmet,chain,shield,long-axe,sword")}), 6);
    /* a +1 weapon in each hand slings the shield: +5 */
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("helmet,chain,shield,sword,axe")}), 5);
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("spear")}), 2);
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("bow,quiver")}), 0);
    CHECK_EQ_INT(raid_kit_melee((raid_kit[]){kit_of("bow,dagger,shield")}), 2);
    CHECK_EQ_INT(raid_kit_missile_defence((raid_kit[]){kit_of("chain,helmet,sword,shield")}), 4);
    CHECK_EQ_INT(raid_kit_cost((raid_kit[]){kit_of("sword,shield,helmet")}), 3);
    CHECK_EQ_INT(raid_kit_cost((raid_kit[]){kit_of("javelin,javelin,chain,pony")}), 12);
    CHECK_EQ_INT(raid_kit_weapon_value((raid_kit[]){kit_of("spear,sword,chain")}), 3);
    /* breaking: the weapon in use goes first */
    k = kit_of("long-axe,sword,shield");
    CHECK_EQ_INT(raid_kit_break(&k), RAID_LONG_AXE);
    CHECK_EQ_INT(raid_kit_melee(&k), 2);
    CHECK_EQ_INT(raid_kit_break(&k), RAID_SWORD);
    CHECK_EQ_INT(raid_kit_break(&k), -1);
    /* bad input */
    CHECK(raid_kit_parse("sword,halberd", &k, err, sizeof err) < 0 && strstr(err, "halberd"));
    CHECK(raid_kit_parse("spear,long-axe", &k, err, sizeof err) < 0 && strstr(err, "conflicting"));
    CHECK(raid_kit_parse("sword,axe,dagger", &k, err, sizeof err) < 0 && strstr(err, "2 weapons"));
    CHECK(raid_kit_parse("bow,axe", &k, err, sizeof err) < 0 && strstr(err, "archer"));
    CHECK(raid_kit_parse("javelin,spear", &k, err, sizeof err) < 0);
    CHECK(raid_kit_parse("javelin,javelin,javelin", &k, err, sizeof err) < 0);
    CHECK(raid_kit_parse("helmet,helmet,sword", &k, err, sizeof err) < 0);
    CHECK(raid_kit_parse("quiver,sword", &k, err, sizeof err) < 0 && strstr(err, "bow"));
    CHECK(raid_kit_parse("sword,,shield", &k, err, sizeof err) < 0 && strstr(err, "empty"));
    CHECK(raid_kit_parse("Sword, Chain Mail", &k, err, sizeof err) == 0 && k.n[RAID_CHAIN] == 1);
}

/* One melee round against card counts worked out by hand. */
static void test_melee_round(void) {
    raid_melee_opts o = {0};
    raid_duel d;
    raid_round rt;
    /* the text's example: sword (+1) against chain, helmet, sword, shield (+5): kill iff
     * Spade - Heart >= 8: 1+2+...+6 = 21 of 196 */
    raid_kit a = kit_of("sword"), def = kit_of("chain,helmet,sword,shield");
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 21 / 196.0));
    /* weapon breaks: each side's Joker, 1 in 14 */
    CHECK(near(rt.breaks[0], 1 / 14.0));
    CHECK(near(rt.breaks[1], 1 / 14.0));
    /* one weapon each: a Joker Spade (no kill possible) is a surrender unless the Heart is a
     * Joker too (both removed): 13/196 and 1/196 */
    CHECK(near(rt.end[RAID_END_A_SURRENDERS], 13 / 196.0));
    CHECK(near(rt.end[RAID_END_BOTH_REMOVED], 1 / 196.0));
    /* the defender's Joker with no kill: Spade - 0 >= 8 kills, so Spades 1..7: 7/196 */
    CHECK(near(rt.end[RAID_END_D_SURRENDERS], 7 / 196.0));
    /* the example: +3 against +5, kill iff S - H >= 6: 1+..+8 = 36 */
    a = kit_of("sword,shield,helmet");
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 36 / 196.0));
    /* moved over 6": +1, S - H >= 5: 45 */
    o.moved = 1;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 45 / 196.0));
    /* the long-move bonus is for the first round only: round 3 is back to 36 */
    raid_duel_round(&d, 3, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 36 / 196.0));
    /* soft cover of the defender: +1, S - H >= 7: 28 */
    o.moved = 0;
    o.cover_d = RAID_COVER_SOFT;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 28 / 196.0));
    /* the +6 cap: +6 kit behind soft cover is +6, against a dagger (+1): S - H >= -1, which
     * fails only for H - S >= 2: 196 - (12+11+...+1) = 118; with a long move +7: 130 */
    memset(&o, 0, sizeof o);
    o.cover_a = RAID_COVER_SOFT;
    a = kit_of("helmet,chain,shield,long-axe");
    def = kit_of("dagger");
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 118 / 196.0));
    o.moved = 1;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 130 / 196.0));
    /* the defence cap (an option): +5 kit behind hard cover is +7, capped +6 */
    memset(&o, 0, sizeof o);
    a = kit_of("sword");
    def = kit_of("chain,helmet,sword,shield");
    o.cover_d = RAID_COVER_HARD;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 10 / 196.0)); /* S - H >= 10: 1+2+3+4 */
    o.cap_defence = 1;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_A_KILLS], 15 / 196.0)); /* S - H >= 9 */
    /* counter kill (an option): the sword man dies when H + 5 - S - 1 >= 4, H - S >= 0 */
    memset(&o, 0, sizeof o);
    o.counter_kill = 1;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    CHECK(near(rt.end[RAID_END_D_KILLS], 105 / 196.0)); /* 14 + 13 + ... + 1 */
}

/* Berserkers: the same denomination lets the attacker buy one more Spade. */
static void test_berserk(void) {
    raid_melee_opts o = {0};
    raid_duel d;
    raid_round rt;
    raid_kit a = kit_of("sword"), def = kit_of("sword");
    o.berserk = RAID_BERSERK_SUM;
    o.run = RAID_RUN_ALWAYS;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    /* equal cards never kill at +1 against +1, so all 14 pairs rage: 14/196 */
    CHECK(near(rt.berserk, 14 / 196.0));
    CHECK(near(rt.coins[0], 2 * 14 / 196.0));
    /* SUM: S + S2 - H >= 4 with S = H means S2 >= 4 (10 of 14); plain kills S - H >= 4: 55 */
    CHECK(near(rt.end[RAID_END_A_KILLS], (55 + 14 * 10 / 14.0) / 196.0));
    o.berserk = RAID_BERSERK_REDRAW;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_round(&d, 1, 0, 0, &rt);
    /* REDRAW: S2 - H >= 4 summed over H = 0..13: 10+9+...+1 = 55 of 196 pairs (S = H) */
    CHECK(near(rt.end[RAID_END_A_KILLS], (55 + 55 / 14.0) / 196.0));
}

/* Whole fights: closed forms worked out by hand for one weapon each. */
static void test_fight(void) {
    raid_melee_opts o = {0};
    raid_duel d;
    raid_fight f, g;
    raid_kit a = kit_of("sword"), def = kit_of("sword");
    /* per round: kill 55, attacker surrenders 13, defender 3, both 1, going on 124 (of 196) */
    o.run = RAID_RUN_ALWAYS;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_solve(&d, &f);
    CHECK(near(f.p[RAID_END_A_KILLS], 55 / 196.0));
    CHECK(near(f.p[RAID_END_D_SURRENDERS], 3 / 196.0));
    CHECK(near(f.p[RAID_END_RUN], 124 / 196.0));
    o.run = RAID_RUN_NEVER;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_solve(&d, &f);
    double c = 124 / 196.0, k = 55 / 196.0;
    CHECK(near(f.p[RAID_END_A_KILLS], k / (1 - c * c)));
    CHECK(near(f.p[RAID_END_D_KILLS], c * k / (1 - c * c)));
    CHECK(near(f.p[RAID_END_BOTH_REMOVED], (1 / 196.0) / (1 - c)));
    CHECK(near(f.rounds, 1 / (1 - c)));
    double tot = 0;
    for (int e = 0; e < RAID_END_NB; e++) tot += f.p[e];
    CHECK(near(tot, 1));
    /* the forward pass agrees with the closed form, two weapons each, every option on */
    a = kit_of("sword,axe,helmet");
    def = kit_of("spear,dagger,chain");
    o.moved = 1;
    o.berserk = RAID_BERSERK_SUM;
    o.cover_d = RAID_COVER_SOFT;
    raid_melee_duel(&d, &a, &def, &o);
    raid_duel_solve(&d, &f);
    raid_duel_forward(&d, 400, &g, NULL);
    for (int e = 0; e < RAID_END_NB; e++) CHECK(fabs(f.p[e] - g.p[e]) < 1e-9);
    CHECK(fabs(f.rounds - g.rounds) < 1e-9);
    CHECK(fabs(f.coins[0] - g.coins[0]) < 1e-9);
    tot = 0;
    for (int e = 0; e < RAID_END_NB; e++) tot += f.p[e];
    CHECK(near(tot, 1));
}

/* The exact odds against a seeded Monte-Carlo estimate played straight from the kits. */
static void test_against_sampling(void) {
    static const struct {
        const char *a, *d;
        int moved, cover, berserk, run;
    } cases[] = {
        {"sword,shield,helmet", "chain,helmet,sword,shield", 1, 1, 0, 0},
        {"long-axe,sword,helmet,chain,shield", "axe,dagger", 0, 2, 1, 0},
        {"bow,dagger", "spear,sword", 1, 0, 2, 0},
        {"javelin,javelin", "sword", 0, 0, 1, 1},
    };
    game_rng rng;
    rng_seed(&rng, 7);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        raid_melee_opts o = {0};
        o.moved = cases[i].moved;
        o.cover_d = (raid_cover)cases[i].cover;
        o.berserk = (raid_berserk)cases[i].berserk;
        o.run = (raid_run)cases[i].run;
        raid_kit a = kit_of(cases[i].a), def = kit_of(cases[i].d);
        raid_duel d;
        raid_fight f;
        raid_melee_duel(&d, &a, &def, &o);
        raid_duel_solve(&d, &f);
        enum { N = 200000 };
        long count[RAID_END_NB] = {0};
        int rounds = 0;
        for (int n = 0; n < N; n++) count[raid_melee_sample(&a, &def, &o, 10000, &rng, &rounds)]++;
        for (int e = 0; e < RAID_END_NB; e++) {
            double p = f.p[e], est = count[e] / (double)N;
            double sd = sqrt(p * (1 - p) / N);
            int ok = fabs(est - p) <= 4.5 * sd + 1e-9;
            if (!ok) fprintf(stderr, "case %zu end %d: exact %.6f sampled %.6f\n", i, e, p, est);
            CHECK(ok);
        }
        CHECK(fabs(rounds / (double)N - f.rounds) < 0.05 * f.rounds);
    }
}

/* Missiles, the stab in the back, wild beasts and the tomb against hand counts. */
static void test_other_rules(void) {
    raid_volley v;
    /* bow +1 against helmet and shield +2: S - H >= 5: 45 */
    raid_missile(RAID_BOW, 1, RAID_TARGET_WARRIOR, 2, RAID_ANIMAL_ZERO, &v);
    CHECK_EQ_INT(v.shot_kill_n, 45);
    CHECK(near(v.shot_break, 1 / 14.0));
    /* the text's example: 10 of Spades + 1 against 4 of Hearts + 2 kills (difference 5) */
    CHECK(10 + 1 - (4 + 2) >= 4);
    /* javelin at an animal (no defence value): S + 2 >= 4, Spades 2..13 */
    raid_missile(RAID_JAVELIN, 1, RAID_TARGET_ANIMAL, 0, RAID_ANIMAL_ZERO, &v);
    CHECK(near(v.shot_kill, 12 / 14.0));
    /* the animal draws a bare Heart (the other reading): S - H >= 2: 78 */
    raid_missile(RAID_JAVELIN, 1, RAID_TARGET_ANIMAL, 0, RAID_ANIMAL_CARD, &v);
    CHECK_EQ_INT(v.shot_kill_n, 78);
    /* a standing archer fires again after a miss with the bow whole: 11/14 + 2/14 * 11/14 */
    raid_missile(RAID_BOW, 2, RAID_TARGET_ANIMAL, 0, RAID_ANIMAL_ZERO, &v);
    CHECK(near(v.kill, 176 / 196.0));
    CHECK(near(v.shots, 1 + 2 / 14.0));
    /* a mounted target: the pony dies on Spade >= 3, then the rider on a D6 of 5 or 6 */
    raid_missile(RAID_BOW, 1, RAID_TARGET_MOUNTED, 0, RAID_ANIMAL_ZERO, &v);
    CHECK(near(v.rider, 11 / 14.0 / 3.0));
    /* assassination: a difference of 8 between bare cards, 21/196; Spade alone >= 8: 6/14 */
    double pb;
    CHECK(near(raid_assassinate(RAID_STAB_HEART, &pb), 21 / 196.0));
    CHECK(near(pb, 1 / 14.0));
    CHECK(near(raid_assassinate(RAID_STAB_SPADE, NULL), 6 / 14.0));
    /* beasts: boar 4 (55), wolf 5 (45), bear 3 (66), troll 2 (78) */
    CHECK(near(raid_beast_attack(RAID_BOAR), 55 / 196.0));
    CHECK(near(raid_beast_attack(RAID_WOLF), 45 / 196.0));
    CHECK(near(raid_beast_attack(RAID_BEAR), 66 / 196.0));
    CHECK(near(raid_beast_attack(RAID_TROLL), 78 / 196.0));
    int faces = 0;
    for (int b = 0; b < RAID_BEAST_NB; b++) faces += raid_beast_faces((raid_beast)b);
    CHECK_EQ_INT(faces, 6);
    /* hunting: a spear man's first blow at a boar, one weapon addition only: S + 2 - H >= 4 */
    raid_duel d;
    raid_kit k = kit_of("spear,helmet,chain");
    raid_beast_duel(&d, RAID_BOAR, &k);
    double per[4][RAID_END_NB];
    raid_fight f, g;
    raid_duel_forward(&d, 2, &f, per);
    CHECK(near(per[0][RAID_END_A_KILLS], 78 / 196.0));
    CHECK(near(per[1][RAID_END_D_KILLS], (118 / 196.0) * 55 / 196.0));
    /* the tomb: sword +1 and -4 in turn 1: S - H >= 7 (28); the King's sword against the
     * figure's -4: S + 1 - H + 4 >= 4, S - H >= -1 (118), */
    k = kit_of("sword,shield,chain");
    raid_tomb_duel(&d, &k);
    raid_duel_forward(&d, 4, &f, per);
    CHECK(near(per[0][RAID_END_A_KILLS], 28 / 196.0));
    /*     * unless the King's Heart was a Joker in round 1 (his sword broke, S - H >= 0: 105); of
     * the 168 pairs without a kill, 7 have the Heart Joker (Spades 0..6) */
    CHECK(near(per[1][RAID_END_D_KILLS], (161 * 118 + 7 * 105) / (196.0 * 196.0)));
    raid_duel_solve(&d, &f);
    raid_duel_forward(&d, 600, &g, NULL);
    for (int e = 0; e < RAID_END_NB; e++) CHECK(fabs(f.p[e] - g.p[e]) < 1e-9);
    CHECK(f.p[RAID_END_A_KILLS] > 0.05 && f.p[RAID_END_A_KILLS] < 0.5);
}

int main(void) {
    test_kits();
    test_melee_round();
    test_berserk();
    test_fight();
    test_against_sampling();
    test_other_rules();
    return check_done();
}
