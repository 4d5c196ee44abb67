/* Saekonungr rules, one block per sentence of the rule text, plus engine invariants. */
#include "engine/games/saek.h"

#include <math.h>
#include <stdlib.h>

#include "tests/check.h"
#include "tests/games/fast_check.h"

static char err[256];

/* A two-player game, player 0 to roll, with the given treasuries and no Viking dice option. */
static saek_state make(int players, const char *opts) {
    saek_state s;
    char o[128];
    snprintf(o, sizeof o, "start=0%s%s", opts ? "," : "", opts ? opts : "");
    if (saek_init(&s, players, o, err, sizeof err)) fprintf(stderr, "init: %s\n", err);
    return s;
}

/* Bit of the ship numbered n. */
static int ship(int n) {
    return 1 << saek_ship_index[n];
}

/* Coins in play. */
static int total_coins(const saek_state *s) {
    int t = s->longship + __builtin_popcount(s->ships);
    for (int p = 0; p < s->nplayers; p++) t += s->coins[p];
    return t;
}

/* Starting treasuries, option errors and the roll-off for the first player. */
static void test_setup(void) {
    /* Treasury: 2-4 players 15 coins, 5 players 12, 6 players 10. */
    int want[7] = {0, 0, 15, 15, 15, 12, 10};
    for (int n = 2; n <= 6; n++) {
        saek_state s = make(n, NULL);
        for (int p = 0; p < n; p++) CHECK_EQ_INT(s.coins[p], want[n]);
        CHECK_EQ_INT(s.ships, 0);
        CHECK_EQ_INT(s.longship, 0);
    }
    CHECK(saek_init(&(saek_state){0}, 1, NULL, err, sizeof err) != 0);
    CHECK(saek_init(&(saek_state){0}, 7, NULL, err, sizeof err) != 0);
    CHECK(saek_init(&(saek_state){0}, 4, "colour=red", err, sizeof err) != 0);
    CHECK(strstr(err, "colour") != NULL);
    CHECK(saek_init(&(saek_state){0}, 4, "coins=abc", err, sizeof err) != 0);
    CHECK(strstr(err, "coins") != NULL);
    /* Highest roll goes first: a roll-off, each player equally likely. */
    saek_state s;
    saek_init(&s, 3, NULL, err, sizeof err);
    CHECK_EQ_INT(saek_game.node(&s), GAME_NODE_CHANCE);
    int outs[16];
    double pr[16];
    CHECK_EQ_INT(saek_game.chance(&s, outs, pr), 3);
    CHECK(fabs(pr[0] - 1.0 / 3) < 1e-12);
    saek_game.apply(&s, 2);
    CHECK_EQ_INT(s.to_move, 2);
    CHECK_EQ_INT(s.phase, SAEK_ROLL);
}

/* Trading turns: taking and loading ships, the 2/12 sweep, the eight ship numbers. */
static void test_trading(void) {
    /* A ship with a coin: the roller takes it. */
    saek_state s = make(2, NULL);
    s.ships = (uint8_t)ship(5);
    saek_game.apply(&s, 5);
    CHECK_EQ_INT(s.coins[0], 16);
    CHECK_EQ_INT(s.ships, 0);
    CHECK_EQ_INT(s.to_move, 1);
    /* A ship without a coin: the roller puts one coin on it. */
    s = make(2, NULL);
    saek_game.apply(&s, 9);
    CHECK_EQ_INT(s.coins[0], 14);
    CHECK_EQ_INT(s.ships, ship(9));
    /* At most one coin per ship: rolling it again takes the coin back. */
    saek_game.apply(&s, 9);
    CHECK_EQ_INT(s.coins[1], 16);
    CHECK_EQ_INT(s.ships, 0);
    /* 2 or 12: all ship coins, not the longship. */
    for (int roll = 2; roll <= 12; roll += 10) {
        s = make(2, NULL);
        s.ships = (uint8_t)(ship(3) | ship(6) | ship(11));
        s.longship = 4;
        s.coins[1] -= 7;
        saek_game.apply(&s, roll);
        CHECK_EQ_INT(s.coins[0], 18);
        CHECK_EQ_INT(s.ships, 0);
        CHECK_EQ_INT(s.longship, 4);
    }
    /* Every turn that is not a raid is a trading turn: the turn passes after one roll. */
    s = make(3, NULL);
    saek_game.apply(&s, 4);
    CHECK_EQ_INT(s.to_move, 1);
    CHECK_EQ_INT(s.turns, 1);
    /* The eight ships are 3-6 and 8-11. */
    int n = 0;
    for (int k = 2; k <= 12; k++) n += saek_ship_index[k] >= 0;
    CHECK_EQ_INT(n, 8);
    CHECK_EQ_INT(saek_ship_index[7], -1);
}

/* The raid on a 7: paying the longship, raid results, the raid-7 choice and repeat raid. */
static void test_raid(void) {
    /* A 7 on a trading turn: one coin to the longship, then the raid. */
    saek_state s = make(2, "vikingdice=0");
    saek_game.apply(&s, 7);
    CHECK_EQ_INT(s.coins[0], 14);
    CHECK_EQ_INT(s.longship, 1);
    CHECK_EQ_INT(s.phase, SAEK_RAID);
    CHECK_EQ_INT(s.rolls, 1);
    /* Always raid, even with no coins on the board: the raid roll is still made. */
    CHECK_EQ_INT(saek_game.node(&s), GAME_NODE_CHANCE);
    /* A raid on a ship with a coin takes it. */
    s.ships = (uint8_t)ship(10);
    s.coins[1]--;
    saek_game.apply(&s, 10);
    CHECK_EQ_INT(s.coins[0], 15);
    CHECK_EQ_INT(s.phase, SAEK_ROLL);
    CHECK_EQ_INT(s.to_move, 1);
    /* A raid on an empty ship fails and never adds a coin. */
    s = make(2, "vikingdice=0");
    saek_game.apply(&s, 7);
    saek_game.apply(&s, 4);
    CHECK_EQ_INT(s.ships, 0);
    CHECK_EQ_INT(s.coins[0], 14);
    /* A raid 2 or 12 takes all ship coins and the longship. */
    for (int roll = 2; roll <= 12; roll += 10) {
        s = make(2, "vikingdice=0");
        s.ships = (uint8_t)(ship(3) | ship(8));
        s.longship = 2;
        s.coins[1] -= 4;
        saek_game.apply(&s, 7); /* pays: longship 3 */
        saek_game.apply(&s, roll);
        CHECK_EQ_INT(s.coins[0], 14 + 2 + 3);
        CHECK_EQ_INT(s.longship, 0);
        CHECK_EQ_INT(s.ships, 0);
    }
    /* A raid 7: two coins from anywhere on the board or one from an opponent, then another
     * raid roll. */
    s = make(3, "vikingdice=0");
    s.ships = (uint8_t)(ship(4) | ship(9));
    s.longship = 2;
    s.coins[1] -= 4;
    s.coins[2] = 0;
    saek_game.apply(&s, 7); /* longship 3 */
    saek_game.apply(&s, 7);
    CHECK_EQ_INT(s.phase, SAEK_RAID7);
    int acts[GAME_MAX_ACTIONS];
    int n = saek_game.legal(&s, 0, acts);
    /* pairs: {4,9}, {4,L}, {9,L}, {L,L}; opponent 1 (opponent 2 is broke) */
    CHECK_EQ_INT(n, 5);
    int i4 = saek_ship_index[4], i9 = saek_ship_index[9], L = SAEK_LONGSHIP;
    int has_ll = 0, has_opp1 = 0, has_opp2 = 0, has_49 = 0;
    for (int i = 0; i < n; i++) {
        has_ll |= acts[i] == SAEK_ACT_PAIR + L * 9 + L;
        has_49 |= acts[i] == SAEK_ACT_PAIR + i4 * 9 + i9;
        has_opp1 |= acts[i] == SAEK_ACT_OPP + 1;
        has_opp2 |= acts[i] == SAEK_ACT_OPP + 2;
    }
    CHECK(has_ll && has_49 && has_opp1 && !has_opp2);
    saek_state c = s;
    saek_game.apply(&c, SAEK_ACT_PAIR + L * 9 + L);
    CHECK_EQ_INT(c.longship, 1);
    CHECK_EQ_INT(c.coins[0], 16);
    CHECK_EQ_INT(c.phase, SAEK_RAID); /* the repeat raid roll */
    CHECK_EQ_INT(c.rolls, 1);
    c = s;
    saek_game.apply(&c, SAEK_ACT_OPP + 1);
    CHECK_EQ_INT(c.coins[1], 10);
    CHECK_EQ_INT(c.coins[0], 15);
    CHECK_EQ_INT(c.phase, SAEK_RAID);
    /* a string of 7s: several raids */
    saek_game.apply(&c, 7);
    CHECK_EQ_INT(c.phase, SAEK_RAID7);
    /* one coin on the board: take it; none: nothing (an opponent may still pay) */
    s = make(2, "vikingdice=0");
    saek_game.apply(&s, 7);
    saek_game.apply(&s, 7);
    n = saek_game.legal(&s, 0, acts);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(acts[0], SAEK_ACT_ONE + L);
    s.longship = 0;
    s.coins[1]++;
    n = saek_game.legal(&s, 0, acts);
    CHECK_EQ_INT(acts[0], SAEK_ACT_NONE);
    CHECK_EQ_INT(n, 2);
}

/* The optional Viking dice: shields add raid rolls, each X pays the longship. */
static void test_viking_dice(void) {
    /* 0, 1 or 2 Viking dice before the raid roll. */
    saek_state s = make(2, NULL);
    saek_game.apply(&s, 7);
    CHECK_EQ_INT(s.phase, SAEK_VDICE);
    int acts[GAME_MAX_ACTIONS];
    CHECK_EQ_INT(saek_game.legal(&s, 0, acts), 3);
    /* two shields: two extra raid rolls */
    saek_state c = s;
    saek_game.apply(&c, 2);
    CHECK_EQ_INT(c.phase, SAEK_VROLL);
    int outs[8];
    double pr[8];
    CHECK_EQ_INT(saek_game.chance(&c, outs, pr), 3);
    CHECK(fabs(pr[0] - 0.25) < 1e-12 && fabs(pr[1] - 0.5) < 1e-12 && fabs(pr[2] - 0.25) < 1e-12);
    saek_game.apply(&c, 2);
    CHECK_EQ_INT(c.rolls, 3);
    CHECK_EQ_INT(c.longship, 1);
    saek_game.apply(&c, 4);
    saek_game.apply(&c, 5);
    CHECK_EQ_INT(c.phase, SAEK_RAID);
    saek_game.apply(&c, 6);
    CHECK_EQ_INT(c.phase, SAEK_ROLL);
    CHECK_EQ_INT(c.to_move, 1);
    /* each X: one coin to the longship at once */
    c = s;
    saek_game.apply(&c, 2);
    saek_game.apply(&c, 0);
    CHECK_EQ_INT(c.coins[0], 12);
    CHECK_EQ_INT(c.longship, 3);
    CHECK_EQ_INT(c.rolls, 1);
    /* one die, one shield */
    c = s;
    saek_game.apply(&c, 1);
    saek_game.apply(&c, 1);
    CHECK_EQ_INT(c.rolls, 2);
    CHECK_EQ_INT(c.coins[0], 14);
    /* an X that cannot be paid expels */
    c = s;
    c.coins[1] += c.coins[0];
    c.coins[0] = 1;
    saek_game.apply(&c, 2);
    saek_game.apply(&c, 0);
    CHECK_EQ_INT(c.phase, SAEK_OVER);
    CHECK(!(c.alive & 1));
}

/* Expulsion on an impossible payment, the end, and the first-expulsion option. */
static void test_expulsion(void) {
    /* A payment to a ship that cannot be made expels at once. */
    saek_state s = make(3, NULL);
    s.coins[0] = 0;
    saek_game.apply(&s, 5);
    CHECK_EQ_INT(s.alive, 6);
    CHECK_EQ_INT(s.to_move, 1);
    CHECK_EQ_INT(s.phase, SAEK_ROLL);
    /* expelled players are skipped */
    saek_game.apply(&s, 4);
    saek_game.apply(&s, 4);
    CHECK_EQ_INT(s.to_move, 1);
    /* the longship payment too; the game ends when one player is left */
    s.coins[1] = 0;
    saek_game.apply(&s, 7);
    CHECK_EQ_INT(s.phase, SAEK_OVER);
    double share[6];
    saek_game.result(&s, share);
    CHECK(share[2] == 1.0 && share[0] == 0.0 && share[1] == 0.0);
    /* zero coins alone does not expel: only a payment does */
    s = make(2, NULL);
    s.coins[0] = 0;
    s.ships = (uint8_t)ship(5);
    s.coins[1]--;
    saek_game.apply(&s, 5);
    CHECK_EQ_INT(s.alive, 3);
    CHECK_EQ_INT(s.coins[0], 1);
    /* Option: end at the first expulsion; the others share the win. */
    s = make(4, "firstout=1");
    s.coins[0] = 0;
    saek_game.apply(&s, 3);
    CHECK_EQ_INT(s.phase, SAEK_OVER);
    saek_game.result(&s, share);
    CHECK(share[0] == 0.0 && fabs(share[1] - 1.0 / 3) < 1e-12);
}

/* Random games: conservation, one winner, fast path equal to generic, fair dice. */
static void test_invariants(void) {
    /* Random games: coins conserved, one winner, generic and fast paths identical. */
    for (int players = 2; players <= 6; players++) {
        for (int g = 0; g < 200; g++) {
            saek_state a, b;
            saek_init(&a, players, NULL, err, sizeof err);
            b = a;
            int total = total_coins(&a);
            game_rng r1, r2;
            rng_seed(&r1, (uint64_t)(players * 1000 + g));
            r2 = r1;
            int ok = 1;
            while (saek_game.node(&a) != GAME_NODE_TERMINAL) {
                game_step_random(&saek_game, &a, &r1);
                if (total_coins(&a) != total) ok = 0;
                for (int p = 0; p < players; p++)
                    if (a.coins[p] < 0) ok = 0;
            }
            CHECK(ok);
            saek_game.playout(&b, &r2);
            CHECK(memcmp(&a, &b, sizeof a) == 0);
            CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
            CHECK_EQ_INT(__builtin_popcount(a.alive), 1);
            double share[6], sum = 0;
            saek_game.result(&a, share);
            for (int p = 0; p < players; p++) sum += share[p];
            CHECK(fabs(sum - 1) < 1e-12);
        }
    }
    /* the fast playout also finishes, identically, from every phase of a turn */
    int same = 0, from = 0;
    for (int g = 0; g < 400; g++) {
        saek_state a;
        saek_init(&a, 2 + g % 5, NULL, err, sizeof err);
        game_rng r1;
        rng_seed(&r1, (uint64_t)g);
        fast_check_steps(&saek_game, &a, &r1, (int)rng_below(&r1, 60));
        from |= 1 << a.phase;
        same += fast_check_same(&saek_game, &a, &r1);
    }
    CHECK_EQ_INT(same, 400);
    CHECK(from & (1 << SAEK_VROLL));
    CHECK(from & (1 << SAEK_RAID7));
    /* The 2D6 sampler matches the probabilities chance() reports (chi-square, fixed seed). */
    saek_state s = make(2, NULL);
    game_rng r;
    rng_seed(&r, 7);
    long cnt[13] = {0};
    int N = 360000;
    for (int i = 0; i < N; i++) cnt[saek_game.sample_chance(&s, &r)]++;
    double chi = 0;
    for (int k = 2; k <= 12; k++) {
        double e = N * saek_2d6_ways[k] / 36.0;
        chi += (cnt[k] - e) * (cnt[k] - e) / e;
    }
    CHECK(chi < 29.6); /* 10 degrees of freedom, p = 0.001 */
}

/* The fast playout plays exactly the generic interface's game, generator included, under every
 * option and from any point of a turn: few coins (many expulsions), no Viking dice, the game
 * ending at the first expulsion, and turn caps that stop games part-way. */
static void test_fast_stress(void) {
    int games = getenv("HNEFI_QUICK") ? 4000 : 40000;
    int same = 0, capped = 0, first_out = 0, x_expelled = 0, no_dice = 0;
    for (int g = 0; g < games; g++) {
        game_rng r1;
        rng_seed(&r1, (uint64_t)(5000 + g));
        int players = 2 + (int)rng_below(&r1, 5);
        int coins = 1 + (int)rng_below(&r1, g % 3 ? 15 : 3);
        int vd = (int)rng_below(&r1, 2), fo = rng_below(&r1, 4) == 0;
        int cap = rng_below(&r1, 3) == 0 ? 1 + (int)rng_below(&r1, 60) : 0;
        char opts[128];
        snprintf(opts, sizeof opts, "coins=%d,vikingdice=%d,firstout=%d,maxturns=%d", coins, vd, fo,
                 cap);
        saek_state a;
        if (!CHECK(saek_init(&a, players, opts, err, sizeof err) == 0)) return;
        fast_check_steps(&saek_game, &a, &r1, (int)rng_below(&r1, 80));
        same += fast_check_same(&saek_game, &a, &r1);
        int left = __builtin_popcount(a.alive);
        capped += cap && a.turns == cap && left > 1 && !(fo && a.first_out != 255);
        first_out += fo && a.first_out != 255 && left > 1;
        x_expelled += a.dice != 0; /* the game ended when an X coin could not be paid */
        no_dice += !vd;
    }
    CHECK_EQ_INT(same, games);
    /* every way a game can end was met */
    CHECK(capped > 0);
    CHECK(first_out > 0);
    CHECK(x_expelled > 0);
    CHECK(no_dice > 0);
}

/* The fast playout's raid-7 choice by index equals the legal list, in every board. */
static void test_raid7_index(void) {
    int bad = 0, cases = 0;
    for (int ships = 0; ships < 256; ships++)
        for (int lng = 0; lng <= 3; lng++)
            for (int rich = 0; rich < 8; rich++) {
                saek_state s = make(4, NULL);
                s.ships = (uint8_t)ships;
                s.longship = (int16_t)lng;
                s.to_move = (uint8_t)(rich & 3);
                for (int q = 1; q < 4; q++) s.coins[q] = (int16_t)((rich >> (q - 1)) & 1);
                s.phase = SAEK_RAID7;
                s.rolls = 1;
                int acts[GAME_MAX_ACTIONS];
                int n = saek_game.legal(&s, s.to_move, acts);
                for (int k = 0; k < n; k++) bad += saek_raid7_action(&s, k) != acts[k];
                cases++;
            }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(cases, 256 * 4 * 8);
}

/* STATE text round trips; malformed STATEs are refused with the bad word named. */
static void test_text(void) {
    /* format and parse round-trip; bad STATE words are named */
    saek_state s = make(3, NULL), t;
    s.ships = (uint8_t)(ship(3) | ship(11));
    s.longship = 2;
    s.coins[2] = 0;
    s.alive = 3;
    s.coins[1] = 10;
    char buf[512];
    saek_game.format(&s, buf, sizeof buf);
    CHECK_EQ_INT(saek_game.parse(&t, buf, err, sizeof err), 0);
    CHECK_EQ_INT(t.ships, s.ships);
    CHECK_EQ_INT(t.longship, 2);
    CHECK_EQ_INT(t.alive, 3);
    CHECK_EQ_INT(t.coins[1], 10);
    CHECK(saek_game.parse(&t, "coins=3,4 ships=7", err, sizeof err) != 0);
    CHECK(strstr(err, "'7'") != NULL);
    CHECK(saek_game.parse(&t, "coins=3,abc", err, sizeof err) != 0);
    CHECK(strstr(err, "abc") != NULL);
    CHECK(saek_game.parse(&t, "ships=3", err, sizeof err) != 0);
    CHECK(strstr(err, "coins") != NULL);
    CHECK(saek_game.parse(&t, "coins=3,4 phase=fly", err, sizeof err) != 0);
    CHECK(strstr(err, "fly") != NULL);
    CHECK(saek_game.parse(&t, "coins=3,4 colour=2", err, sizeof err) != 0);
    CHECK(strstr(err, "colour") != NULL);
    CHECK(saek_game.parse(&t, "coins=3,x move=1", err, sizeof err) != 0);
    CHECK(saek_game.parse(&t, "coins=3,4 ships=3,3", err, sizeof err) != 0);
    CHECK_EQ_INT(
        saek_game.parse(&t, "coins=9,4 ships=3,5 long=2 phase=vdice vikingdice=1", err, sizeof err),
        0);
    CHECK_EQ_INT(saek_game.node(&t), GAME_NODE_DECISION);
    int n = saek_game.render(&t, buf, sizeof buf);
    CHECK(n > 0 && strstr(buf, "longship: 2") != NULL);
}

/* Damaged STATE lines are refused or, when accepted, can be played to the end. */
static void test_parse_fuzz(void) {
    game_rng r;
    rng_seed(&r, 78);
    int accepted = 0, refused = 0, finished = 0;
    for (int g = 0; g < 2000; g++) {
        saek_state s;
        saek_init(&s, 2 + g % 5, NULL, err, sizeof err);
        int stop = (int)rng_below(&r, 100);
        for (int k = 0; k < stop && saek_game.node(&s) != GAME_NODE_TERMINAL; k++)
            game_step_random(&saek_game, &s, &r);
        char line[512];
        saek_game.format(&s, line, sizeof line);
        size_t len = strlen(line);
        for (int e = 0; e < 1 + (int)rng_below(&r, 3); e++) {
            const char alphabet[] = "0123456789,= x-7";
            line[rng_below(&r, (uint32_t)len)] = alphabet[rng_below(&r, sizeof alphabet - 1)];
        }
        saek_state t;
        if (saek_game.parse(&t, line, err, sizeof err) != 0) {
            refused++;
            continue;
        }
        accepted++;
        t.opt_maxturns = 100000;
        game_playout_random(&saek_game, &t, &r);
        finished += saek_game.node(&t) == GAME_NODE_TERMINAL;
    }
    printf("damaged STATEs: %d refused, %d accepted, %d of those played out\n", refused, accepted,
           finished);
    CHECK(refused > 100);
    CHECK(accepted > 20);
    CHECK_EQ_INT(finished, accepted);
}

/* Runs every Saekonungr test. */
int main(void) {
    test_setup();
    test_trading();
    test_raid();
    test_viking_dice();
    test_expulsion();
    test_invariants();
    test_fast_stress();
    test_raid7_index();
    test_text();
    test_parse_fuzz();
    return check_done();
}
