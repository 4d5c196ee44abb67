/* Eketorp rules, one block per rule of the text, the data file, and invariants of random games. */
#include "engine/games/eketorp.h"

#include <math.h>
#include <stdlib.h>

#include "tests/check.h"
#include "tests/games/fast_check.h"

static char err[256];

/* A game past the deal, in the planning phase, every hand 1..6 once, no tiles on fields. */
static ekt_state make(int n, const char *opts) {
    ekt_state s;
    if (ekt_init(&s, n, opts, err, sizeof err)) fprintf(stderr, "init: %s\n", err);
    for (int p = 0; p < n; p++)
        for (int v = 1; v < EKT_VALUES; v++) s.hand[p][v] = 1;
    s.phase = EKT_PLAN;
    return s;
}

/* Ends the planning (everyone stops), which moves the written orders onto the board. */
static void go(ekt_state *s) {
    int joint[GAME_MAX_PLAYERS];
    for (int p = 0; p < s->np; p++) joint[p] = EKT_PLAN_STOP;
    ekt_game.apply_joint(s, joint);
}

/* Writes an order for p directly (as if sent in secret). */
static void order_field(ekt_state *s, int p, int f, int k) {
    s->plan_field[p][f] = (uint8_t)(s->plan_field[p][f] + k);
    s->planned[p] = (uint8_t)(s->planned[p] + k);
}

/* Writes a siege order. */
static void order_siege(ekt_state *s, int p, int q, int side) {
    s->plan_siege[p][q][side]++;
    s->planned[p]++;
}

/* Leaves a fight between players 1 and 2 on field g open, so the week does not end. */
static void keep_open(ekt_state *s) {
    order_field(s, 1, 6, 1);
    order_field(s, 2, 6, 1);
}

/* Plays cards a (by fighter 0) and b (by fighter 1) in the current fight, no exchanges. */
static void fight(ekt_state *s, int a, int b) {
    while (s->phase == EKT_EXCHANGE) ekt_game.apply(s, 0);
    CHECK_EQ_INT(s->phase, EKT_CARDS);
    int joint[GAME_MAX_PLAYERS];
    for (int p = 0; p < s->np; p++) joint[p] = GAME_NO_ACTION;
    joint[s->fighter[0]] = a;
    joint[s->fighter[1]] = b;
    ekt_game.apply_joint(s, joint);
}

/* Index of action a in the legal list of player p, or -1. */
static int has_action(const ekt_state *s, int p, int a) {
    int acts[GAME_MAX_ACTIONS];
    int n = ekt_game.legal(s, p, acts);
    for (int i = 0; i < n; i++)
        if (acts[i] == a) return i;
    return -1;
}

/* Pieces, amulets and cards by player count; the default pack and box. */
static void test_setup(void) {
    /* 6 players: 5 pieces; 4 and 5 players: 6; 3 players: 8. 5 amulets, four cards each. */
    int want[7] = {0, 0, 0, 8, 6, 6, 5};
    for (int n = 3; n <= 6; n++) {
        ekt_state s;
        CHECK_EQ_INT(ekt_init(&s, n, NULL, err, sizeof err), 0);
        game_rng r;
        rng_seed(&r, (uint64_t)n);
        while (s.phase == EKT_DRAW) ekt_game.apply(&s, ekt_game.sample_chance(&s, &r));
        for (int p = 0; p < n; p++) {
            CHECK_EQ_INT(s.pieces[p], want[n]);
            CHECK_EQ_INT(s.home[p], want[n]);
            CHECK_EQ_INT(s.amulets[p], 5);
            int c = 0;
            for (int v = 1; v < EKT_VALUES; v++) c += s.hand[p][v];
            CHECK_EQ_INT(c, 4);
        }
        int deck = 0;
        for (int v = 1; v < EKT_VALUES; v++) deck += s.deck[v];
        CHECK_EQ_INT(deck, 54 - 4 * n);
    }
    CHECK(ekt_init(&(ekt_state){0}, 2, NULL, err, sizeof err) != 0);
    CHECK(ekt_init(&(ekt_state){0}, 4, "sally=2", err, sizeof err) != 0);
    CHECK(strstr(err, "sally") != NULL);
    /* The 54 fighting cards: values 1-6, nine each (the default data). */
    const ekt_data *d = ekt_data_current();
    for (int v = 1; v < EKT_VALUES; v++) CHECK_EQ_INT(d->cards[v], 9);
    CHECK_EQ_INT(d->item_count, 12);
    CHECK_EQ_INT(d->supply[1] + d->supply[2] + d->supply[3] + d->supply[4], 60 + 48 + 12 + 6);
}

/* The re-deal of a hand without a 4, 5 or 6. */
static void test_redeal(void) {
    /* A player without a 4, 5 or 6 may return the cards and get four new ones. */
    ekt_state s;
    ekt_init(&s, 3, NULL, err, sizeof err);
    for (int k = 0; k < 4; k++) ekt_game.apply(&s, 1); /* player 0: 1 1 1 1 */
    for (int k = 0; k < 4; k++) ekt_game.apply(&s, 5); /* player 1: 5 5 5 5 */
    for (int k = 0; k < 4; k++) ekt_game.apply(&s, 2); /* player 2: 2 2 2 2 */
    CHECK_EQ_INT(s.phase, EKT_REDEAL);
    CHECK_EQ_INT(ekt_game.to_move(&s), 0);
    ekt_game.apply(&s, 1);
    CHECK_EQ_INT(s.hand[0][1], 0);
    CHECK_EQ_INT(s.deck[1], 9); /* shuffled back */
    CHECK_EQ_INT(s.phase, EKT_DRAW);
    for (int k = 0; k < 4; k++) ekt_game.apply(&s, 3);
    /* player 1 holds 5s and is not asked; player 2 is */
    CHECK_EQ_INT(s.phase, EKT_REDEAL);
    CHECK_EQ_INT(ekt_game.to_move(&s), 2);
    ekt_game.apply(&s, 0);
    CHECK_EQ_INT(s.hand[2][2], 4);
    /* then the first week: the item card */
    CHECK_EQ_INT(s.phase, EKT_ITEMS);
}

/* Item cards put tiles on the fields; the rotten-items add-on. */
static void test_items(void) {
    /* One tile per letter of the item card on its field. */
    const ekt_data *d = ekt_data_current();
    ekt_state s = make(4, NULL);
    s.phase = EKT_ITEMS;
    ekt_game.apply(&s, 3);
    int on[EKT_FIELDS] = {0};
    for (int i = 0; i < d->item_len[3]; i++) on[d->item_field[3][i]]++;
    for (int f = 0; f < EKT_FIELDS; f++) {
        int n = 0;
        for (int m = 1; m < EKT_MATERIALS; m++) n += s.ftile[f][m];
        CHECK_EQ_INT(n, on[f]);
    }
    CHECK_EQ_INT(s.phase, EKT_PLAN);
    /* a used card does not come again */
    s.phase = EKT_ITEMS;
    CHECK(has_action(&s, 0, 3) < 0);
    /* Add-on: foliage and wood never exceed three per field; the rest rot. */
    s = make(4, "rotten=1");
    s.ftile[0][1] = 3;
    s.phase = EKT_ITEMS;
    ekt_game.apply(&s, 0); /* card 0 puts two foliage on a */
    CHECK_EQ_INT(s.ftile[0][1], 3);
    s = make(4, "rotten=1");
    s.ftile[0][1] = 1;
    s.ftile[0][2] = 1;
    s.phase = EKT_ITEMS;
    ekt_game.apply(&s, 0); /* together: one more fits */
    CHECK_EQ_INT(s.ftile[0][1], 2);
    s = make(4, "rotten=2");
    s.ftile[0][1] = 1;
    s.ftile[0][2] = 3;
    s.phase = EKT_ITEMS;
    ekt_game.apply(&s, 0); /* each on its own: both foliage fit */
    CHECK_EQ_INT(s.ftile[0][1], 3);
    s = make(4, NULL);
    s.ftile[0][1] = 3;
    s.phase = EKT_ITEMS;
    ekt_game.apply(&s, 0);
    CHECK_EQ_INT(s.ftile[0][1], 5);
}

/* Hidden simultaneous orders, executed only when everyone has written. */
static void test_orders(void) {
    /* Hidden, simultaneous orders; never more Vikings than at home. */
    ekt_state s = make(3, NULL);
    s.home[0] = 2;
    int joint[GAME_MAX_PLAYERS] = {EKT_PLAN_FIELD + 3, EKT_PLAN_SIEGE + 0 * 3 + 1, EKT_PLAN_STOP};
    ekt_game.apply_joint(&s, joint);
    CHECK_EQ_INT(ekt_game.node(&s), GAME_NODE_SIMULTANEOUS);
    CHECK_EQ_INT(s.field[0][3], 0); /* not on the board before everyone has written */
    CHECK(has_action(&s, 0, EKT_PLAN_FIELD) >= 0);
    joint[0] = EKT_PLAN_FIELD + 3;
    joint[1] = EKT_PLAN_STOP;
    joint[2] = GAME_NO_ACTION;
    ekt_game.apply_joint(&s, joint);
    CHECK_EQ_INT(s.field[0][3], 2);
    CHECK_EQ_INT(s.home[0], 0);
    CHECK_EQ_INT(s.siege[1][0][1], 1);
    /* player 0's stronghold is empty, player 1 is sole besieger: his siege is open */
    CHECK_EQ_INT(s.phase, EKT_CHOOSE);
    /* a siege of one's own stronghold is not an order */
    s = make(3, NULL);
    CHECK(has_action(&s, 1, EKT_PLAN_SIEGE + 1 * 3) < 0);
    CHECK(has_action(&s, 1, EKT_PLAN_SIEGE + 2 * 3 + 2) >= 0);
    /* no more Vikings than at home: a player whose Vikings are all sent has no choice */
    s = make(3, NULL);
    s.home[0] = 1;
    s.planned[0] = 1;
    int acts[GAME_MAX_ACTIONS];
    CHECK_EQ_INT(ekt_game.legal(&s, 0, acts), 0);
}

/* Fights for items: when they happen, who names them, hospital spaces. */
static void test_field_fights(void) {
    /* Fights only where there are more Vikings than items, between different players. */
    ekt_state s = make(3, NULL);
    s.ftile[2][1] = 1;
    s.ftile[4][2] = 2;
    order_field(&s, 0, 2, 1);
    order_field(&s, 1, 2, 1);
    order_field(&s, 0, 4, 1);
    order_field(&s, 2, 4, 1);
    go(&s);
    CHECK_EQ_INT(s.phase, EKT_CHOOSE);
    CHECK_EQ_INT(s.chooser, 0); /* the starting player names a fight first */
    CHECK(has_action(&s, 0, EKT_FIGHT_FIELD + 2 * 10 + 1) >= 0);
    CHECK(has_action(&s, 0, EKT_FIGHT_FIELD + 4 * 10 + 2) < 0); /* 2 Vikings, 2 items */
    ekt_game.apply(&s, EKT_FIGHT_FIELD + 2 * 10 + 1);
    fight(&s, 6, 2);
    /* the loser goes to the hospital by the difference (4: Diff 3-4) */
    CHECK_EQ_INT(s.hosp[1][1], 1);
    CHECK_EQ_INT(s.field[1][2], 0);
    /* the played cards change hands, face down on the sheets */
    CHECK_EQ_INT(s.pile[0][2], 1);
    CHECK_EQ_INT(s.pile[1][6], 1);
    CHECK_EQ_INT(s.hand[0][6], 0);
    /* no fights left: items shared, everybody home, building */
    CHECK_EQ_INT(s.gain[0][1] + s.gain[0][2], 2);
    CHECK_EQ_INT(s.gain[2][2], 1);
    CHECK_EQ_INT(s.phase, EKT_BUILD);
    /* a tie sends both to Diff 0 */
    s = make(3, NULL);
    order_field(&s, 0, 0, 1);
    order_field(&s, 2, 0, 1);
    keep_open(&s);
    go(&s);
    ekt_game.apply(&s, EKT_FIGHT_FIELD + 0 * 10 + 2);
    fight(&s, 3, 3);
    CHECK_EQ_INT(s.hosp[0][3], 1);
    CHECK_EQ_INT(s.hosp[2][3], 1);
    /* the next player names the next fight */
    s = make(3, NULL);
    order_field(&s, 0, 0, 1);
    order_field(&s, 1, 0, 1);
    order_field(&s, 1, 1, 1);
    order_field(&s, 2, 1, 1);
    go(&s);
    ekt_game.apply(&s, EKT_FIGHT_FIELD + 0 * 10 + 1);
    fight(&s, 5, 1);
    CHECK_EQ_INT(s.phase, EKT_CHOOSE);
    CHECK_EQ_INT(s.chooser, 1);
    /* the hospital spaces by difference: 5+, 3-4, 1-2, 0, and one less for a defender */
    CHECK_EQ_INT(ekt_hospital_space(5, 0), 0);
    CHECK_EQ_INT(ekt_hospital_space(4, 0), 1);
    CHECK_EQ_INT(ekt_hospital_space(3, 0), 1);
    CHECK_EQ_INT(ekt_hospital_space(2, 0), 2);
    CHECK_EQ_INT(ekt_hospital_space(1, 0), 2);
    CHECK_EQ_INT(ekt_hospital_space(0, 0), 3);
    CHECK_EQ_INT(ekt_hospital_space(0, 1), 4);
    CHECK_EQ_INT(ekt_hospital_space(4, 1), 2);
}

/* Builds a stronghold side: place k gets the listed materials bottom to top. */
static void build(ekt_state *s, int p, int k, const char *mats) {
    for (int i = 0; mats[i]; i++) s->place[p][k][s->height[p][k]++] = (uint8_t)(mats[i] - '0');
}

/* Sieges: Example 5, tearing down, empty strongholds, rival besiegers, sallies. */
static void test_sieges(void) {
    /* Example 5: besieger 5, defender 3: the defender goes to Diff 0, not Diff 1-2. */
    ekt_state s = make(3, NULL);
    build(&s, 1, 2, "12");
    build(&s, 1, 3, "21");
    order_siege(&s, 0, 1, 1);
    go(&s);
    CHECK(has_action(&s, 0, EKT_FIGHT_SIEGE + 1 * 10 + 1) >= 0);
    /* the defender cannot begin the fight */
    CHECK(has_action(&s, 1, EKT_FIGHT_SALLY + 1 * 10 + 0) < 0);
    ekt_game.apply(&s, EKT_FIGHT_SIEGE + 1 * 10 + 1);
    CHECK_EQ_INT(s.fighter[1], 1);
    int home1 = s.home[1];
    fight(&s, 5, 3);
    CHECK_EQ_INT(s.hosp[1][3], 1);
    CHECK_EQ_INT(s.home[1], home1 - 1);
    /* the winner tears down up to the difference (2) from the top and takes one home */
    int left = 0;
    for (int k = 2; k < 4; k++)
        for (int l = 0; l < s.height[1][k]; l++) left += s.place[1][k][l];
    CHECK_EQ_INT(left, 6 - 2);
    CHECK_EQ_INT(s.gain[0][1] + 2 * s.gain[0][2], 2);
    /* the other sides are untouched */
    CHECK_EQ_INT(s.height[1][0], 0);
    /* Example 5, tie: defender to Dismissal, besieger to Diff 0 */
    s = make(3, NULL);
    order_siege(&s, 0, 1, 0);
    keep_open(&s);
    go(&s);
    ekt_game.apply(&s, EKT_FIGHT_SIEGE + 1 * 10 + 0);
    fight(&s, 5, 5);
    CHECK_EQ_INT(s.hosp[1][4], 1);
    CHECK_EQ_INT(s.hosp[0][3], 1);
    /* a losing besieger is injured as in a normal fight */
    s = make(3, NULL);
    order_siege(&s, 0, 1, 0);
    keep_open(&s);
    go(&s);
    ekt_game.apply(&s, EKT_FIGHT_SIEGE + 1 * 10 + 0);
    fight(&s, 1, 6);
    CHECK_EQ_INT(s.hosp[0][0], 1);
    CHECK_EQ_INT(s.hosp[1][0] + s.hosp[1][1] + s.hosp[1][2] + s.hosp[1][3] + s.hosp[1][4], 0);
    /* tiles worth more than the difference stay: a stone needs 4 */
    s = make(3, NULL);
    build(&s, 1, 0, "4");
    order_siege(&s, 0, 1, 0);
    go(&s);
    ekt_game.apply(&s, EKT_FIGHT_SIEGE + 1 * 10 + 0);
    fight(&s, 4, 1);
    CHECK_EQ_INT(s.height[1][0], 1);
    /* an empty stronghold: the owner still gives a card, which counts zero */
    s = make(3, NULL);
    build(&s, 1, 4, "11");
    s.home[1] = 0;
    s.hosp[1][2] = s.pieces[1];
    order_siege(&s, 0, 1, 2);
    go(&s);
    ekt_game.apply(&s, EKT_FIGHT_SIEGE + 1 * 10 + 2);
    fight(&s, 2, 6);
    CHECK_EQ_INT(s.height[1][4], 0); /* 2 - 0 = 2: both foliage removed */
    CHECK_EQ_INT(s.pile[0][6], 1);   /* cards exchanged as usual */
    CHECK_EQ_INT(s.pile[1][2], 1);
    CHECK_EQ_INT(s.hosp[0][0] + s.hosp[0][1] + s.hosp[0][2] + s.hosp[0][3] + s.hosp[0][4], 0);
    /* two besiegers on one section fight each other first */
    s = make(3, NULL);
    order_siege(&s, 0, 1, 0);
    order_siege(&s, 2, 1, 0);
    go(&s);
    CHECK(has_action(&s, 0, EKT_FIGHT_RIVALS + 1 * 100 + 0 * 10 + 2) >= 0);
    CHECK(has_action(&s, 0, EKT_FIGHT_SIEGE + 1 * 10 + 0) < 0);
    ekt_game.apply(&s, EKT_FIGHT_RIVALS + 1 * 100 + 0 * 10 + 2);
    fight(&s, 2, 4);
    CHECK_EQ_INT(s.siege[0][1][0], 0);
    CHECK_EQ_INT(s.hosp[0][2], 1);
    /* now player 2 alone besieges, and names the siege in his turn */
    CHECK_EQ_INT(s.chooser, 2);
    CHECK(has_action(&s, 2, EKT_FIGHT_SIEGE + 1 * 10 + 0) >= 0);
    /* Add-on: the defender may sally, with no protection */
    s = make(3, "sally=1");
    order_siege(&s, 0, 1, 0);
    go(&s);
    s.chooser = 1;
    CHECK(has_action(&s, 1, EKT_FIGHT_SALLY + 0 * 10 + 0) >= 0);
    ekt_game.apply(&s, EKT_FIGHT_SALLY + 0 * 10 + 0);
    fight(&s, 3, 5);
    CHECK_EQ_INT(s.hosp[1][2], 1); /* difference 2, no protection: Diff 1-2 */
}

/* Exchanging a hand for amulets, and taking up the sheet when the hand is empty. */
static void test_exchange(void) {
    /* Before a fight: pay as many amulets as cards in hand to exchange them all. */
    ekt_state s = make(3, NULL);
    order_field(&s, 0, 0, 1);
    order_field(&s, 1, 0, 1);
    go(&s);
    for (int v = 1; v < EKT_VALUES; v++) s.hand[0][v] = v <= 4; /* four cards */
    ekt_game.apply(&s, EKT_FIGHT_FIELD + 1);
    CHECK_EQ_INT(s.phase, EKT_EXCHANGE);
    CHECK_EQ_INT(ekt_game.to_move(&s), 0);
    ekt_game.apply(&s, 1);
    CHECK_EQ_INT(s.amulets[0], 1);
    CHECK_EQ_INT(s.aside[1] + s.aside[2] + s.aside[3] + s.aside[4], 4);
    CHECK_EQ_INT(s.phase, EKT_DRAW);
    for (int k = 0; k < 4; k++) ekt_game.apply(&s, 6);
    CHECK_EQ_INT(s.hand[0][6], 4);
    /* all or nothing: player 1 holds 6 cards and 5 amulets, so he cannot */
    CHECK_EQ_INT(s.phase, EKT_CARDS);
    /* playing down the last card picks up the pile */
    s = make(3, NULL);
    order_field(&s, 0, 0, 1);
    order_field(&s, 1, 0, 1);
    go(&s);
    memset(s.hand[0], 0, EKT_VALUES);
    s.hand[0][2] = 1;
    s.pile[0][4] = 3;
    s.amulets[0] = 0;
    ekt_game.apply(&s, EKT_FIGHT_FIELD + 1);
    fight(&s, 2, 1);
    CHECK_EQ_INT(s.hand[0][4], 3);
    CHECK_EQ_INT(s.hand[0][1], 1);
    CHECK_EQ_INT(s.known[0][4], 3);
}

/* Building, completion, scoring, healing and the end of the game. */
static void test_build_and_end(void) {
    /* Up to three levels on six places; completing gives 5 points and ends the game. */
    ekt_state s = make(3, NULL);
    for (int k = 0; k < EKT_PLACES; k++) build(&s, 0, k, k < 5 ? "111" : "11");
    s.gain[0][4] = 1;
    s.gain[0][2] = 1;
    go(&s);
    CHECK_EQ_INT(s.phase, EKT_BUILD);
    CHECK_EQ_INT(s.build_player, 0);
    int acts[GAME_MAX_ACTIONS];
    CHECK_EQ_INT(ekt_game.legal(&s, 0, acts), 1);
    CHECK_EQ_INT(acts[0], 5);
    int before = ekt_score(&s, 0);
    ekt_game.apply(&s, 5); /* the stone first, on the last place */
    CHECK(s.completed[0]);
    /* the wood has no place: it counts anyway */
    CHECK_EQ_INT(s.extra[0][2], 1);
    CHECK_EQ_INT(ekt_score(&s, 0), before + 4 + 2 + 5);
    CHECK_EQ_INT(s.phase, EKT_OVER); /* the week was finished, then the end */
    double share[6];
    ekt_game.result(&s, share);
    CHECK(share[0] == 1.0);
    /* Scoring: 1, 2, 3, 4 points per material plus amulets */
    s = make(3, NULL);
    build(&s, 1, 0, "123");
    build(&s, 1, 1, "4");
    CHECK_EQ_INT(ekt_score(&s, 1), 10 + 5);
    /* Healing: Dismissal goes home, the others move one space; the start moves on */
    s = make(3, NULL);
    s.home[2] -= 3;
    s.hosp[2][4] = 1;
    s.hosp[2][0] = 1;
    s.hosp[2][3] = 1;
    go(&s);
    CHECK_EQ_INT(s.phase, EKT_ITEMS);
    CHECK_EQ_INT(s.home[2], s.pieces[2] - 2);
    CHECK_EQ_INT(s.hosp[2][1], 1);
    CHECK_EQ_INT(s.hosp[2][4], 1);
    CHECK_EQ_INT(s.start, 1);
    CHECK_EQ_INT(s.week, 2);
    /* The end after 12 weeks at the latest */
    s = make(3, NULL);
    s.week = 12;
    go(&s);
    CHECK_EQ_INT(s.phase, EKT_OVER);
}

/* The data file equals the built-in defaults; bad data lines are named. */
static void test_data(void) {
    /* The compiled-in defaults equal the editable data file. */
    char path[1024];
    snprintf(path, sizeof path, "%s/../../engine/games/data/eketorp-rules.txt", HNEFI_TEST_DATA);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        static char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        CHECK_EQ_STR(text, ekt_default_data_text);
    }
    ekt_data d;
    CHECK_EQ_INT(ekt_data_parse("card 1 30\nhospital 4 2 1 0\nitem a:g\n", &d, err, sizeof err), 0);
    CHECK(ekt_data_parse("card 7 9\n", &d, err, sizeof err) != 0);
    CHECK(strstr(err, "line 1") != NULL);
    CHECK(ekt_data_parse("card 1 30\nhospital 4 2 1 0\nitem a:x\n", &d, err, sizeof err) != 0);
    CHECK(strstr(err, "a:x") != NULL);
    CHECK(ekt_data_parse("card 1 30\nhospital 1 2 3 0\nitem a:g\n", &d, err, sizeof err) != 0);
    CHECK(ekt_data_parse("card 1 30\nhospital 5 3 1 0\nbanana\n", &d, err, sizeof err) != 0);
    CHECK(strstr(err, "banana") != NULL);
}

/* Counts every tile in the game. */
static int tiles(const ekt_state *s) {
    int n = 0;
    for (int m = 1; m < EKT_MATERIALS; m++) {
        n += s->supply[m];
        for (int f = 0; f < EKT_FIELDS; f++) n += s->ftile[f][m];
        for (int p = 0; p < s->np; p++) n += s->extra[p][m] + s->gain[p][m];
    }
    for (int p = 0; p < s->np; p++)
        for (int k = 0; k < EKT_PLACES; k++) n += s->height[p][k];
    return n;
}

/* Random games keep every count; STATE and determinization keep what they must. */
static void test_random_games(void) {
    /* Random games keep pieces, cards and tiles; every state survives format and parse. */
    int bad = 0, roundtrip = 0, over = 0;
    for (int g = 0; g < 300; g++) {
        int n = 3 + g % 4;
        ekt_state s;
        ekt_init(&s, n, g % 2 ? "sally=1,rotten=1" : NULL, err, sizeof err);
        int t0 = tiles(&s);
        game_rng r;
        rng_seed(&r, (uint64_t)g);
        for (int steps = 0; ekt_game.node(&s) != GAME_NODE_TERMINAL && steps < 100000; steps++) {
            game_step_random(&ekt_game, &s, &r);
            if (tiles(&s) != t0) bad++;
            if (steps % 97 == 0) {
                char buf[8192];
                ekt_state t;
                ekt_game.format(&s, buf, sizeof buf);
                if (ekt_game.parse(&t, buf, err, sizeof err) != 0 || memcmp(&s, &t, sizeof s))
                    roundtrip++;
                /* determinizing keeps one's own hand and every count */
                t = s;
                ekt_game.determinize(&t, 0, &r);
                char b2[8192];
                ekt_game.format(&t, b2, sizeof b2);
                ekt_state u;
                if (ekt_game.parse(&u, b2, err, sizeof err) != 0 ||
                    memcmp(t.hand[0], s.hand[0], EKT_VALUES))
                    bad++;
                for (int p = 0; p < n; p++) {
                    int a = 0, b = 0;
                    for (int v = 1; v < EKT_VALUES; v++) a += s.hand[p][v], b += t.hand[p][v];
                    if (a != b) bad++;
                }
            }
        }
        over += ekt_game.node(&s) == GAME_NODE_TERMINAL && s.week <= 12;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(roundtrip, 0);
    CHECK_EQ_INT(over, 300);
    /* the fast random playout plays exactly the generic interface's games */
    int differ = 0;
    for (int g = 0; g < 100; g++) {
        ekt_state a;
        ekt_init(&a, 3 + g % 4, g % 3 ? NULL : "sally=1", err, sizeof err);
        game_rng r1;
        rng_seed(&r1, (uint64_t)g + 1000);
        differ += !fast_check_same(&ekt_game, &a, &r1);
    }
    CHECK_EQ_INT(differ, 0);
    ekt_state t;
    CHECK(ekt_game.parse(&t, "np=4", err, sizeof err) != 0);
    CHECK(strstr(err, "lacks") != NULL);
    CHECK(ekt_game.parse(&t, "banana=1", err, sizeof err) != 0);
    CHECK(strstr(err, "banana") != NULL);
}

/* The fast playout plays exactly the generic interface's game, generator included, from any
 * point of a game, with every add-on and game length and 3 to 6 players. */
static void test_fast_stress(void) {
    int games = getenv("HNEFI_QUICK") ? 300 : 3000, same = 0, from = 0;
    for (int g = 0; g < games; g++) {
        game_rng r1;
        rng_seed(&r1, (uint64_t)(77000 + g));
        char opts[64];
        snprintf(opts, sizeof opts, "sally=%d,rotten=%d,weeks=%d", (int)rng_below(&r1, 2),
                 (int)rng_below(&r1, 3), 1 + (int)rng_below(&r1, 14));
        ekt_state a;
        if (!CHECK(ekt_init(&a, 3 + (int)rng_below(&r1, 4), opts, err, sizeof err) == 0)) return;
        fast_check_steps(&ekt_game, &a, &r1, (int)rng_below(&r1, 300));
        from |= 1 << a.phase;
        same += fast_check_same(&ekt_game, &a, &r1);
    }
    CHECK_EQ_INT(same, games);
    /* started from every kind of node but the rare re-deal */
    int want = 1 << EKT_DRAW | 1 << EKT_ITEMS | 1 << EKT_PLAN | 1 << EKT_CHOOSE |
               1 << EKT_EXCHANGE | 1 << EKT_CARDS | 1 << EKT_BUILD | 1 << EKT_OVER;
    CHECK_EQ_INT(from & want, want);
}

/* Damaged STATE lines are refused or, when accepted, can be played to the end. */
static void test_parse_fuzz(void) {
    game_rng r;
    rng_seed(&r, 77);
    int accepted = 0, refused = 0, finished = 0;
    for (int g = 0; g < 60; g++) {
        ekt_state s;
        ekt_init(&s, 3 + g % 4, NULL, err, sizeof err);
        int stop = (int)rng_below(&r, 400);
        for (int k = 0; k < stop && ekt_game.node(&s) != GAME_NODE_TERMINAL; k++)
            game_step_random(&ekt_game, &s, &r);
        static char line[8192];
        ekt_game.format(&s, line, sizeof line);
        for (int m = 0; m < 40; m++) {
            static char bad[8192];
            snprintf(bad, sizeof bad, "%s", line);
            size_t len = strlen(bad);
            for (int e = 0; e < 1 + (int)rng_below(&r, 3); e++) {
                size_t at = rng_below(&r, (uint32_t)len);
                const char alphabet[] = "0123456789,= x-9";
                bad[at] = alphabet[rng_below(&r, sizeof alphabet - 1)];
            }
            ekt_state t;
            if (ekt_game.parse(&t, bad, err, sizeof err) != 0) {
                refused++;
                CHECK(err[0] != '\0');
                continue;
            }
            accepted++;
            game_rng r2;
            rng_seed(&r2, (uint64_t)m);
            for (int k = 0; k < 200000 && ekt_game.node(&t) != GAME_NODE_TERMINAL; k++)
                game_step_random(&ekt_game, &t, &r2);
            finished += ekt_game.node(&t) == GAME_NODE_TERMINAL;
        }
    }
    printf("damaged STATEs: %d refused, %d accepted, %d of those played out\n", refused, accepted,
           finished);
    CHECK(refused > 100);
    CHECK(accepted > 0);
    CHECK_EQ_INT(finished, accepted);
}

/* Runs every Eketorp test. */
int main(void) {
    test_setup();
    test_redeal();
    test_items();
    test_orders();
    test_field_fights();
    test_sieges();
    test_exchange();
    test_build_and_end();
    test_data();
    test_random_games();
    test_fast_stress();
    test_parse_fuzz();
    return check_done();
}
