/* Viking Raid economy and loadout optimiser: rule cases by hand, the optimiser against brute force.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "search/raid_buy.h"

/* The feeding, tending and plague rules on the text's own example and small cases. */
static void test_economy(void) {
    CHECK_EQ_INT(raid_plague_animal(1), RAID_DUCK);
    CHECK_EQ_INT(raid_plague_animal(2), RAID_DUCK);
    CHECK_EQ_INT(raid_plague_animal(4), RAID_GOOSE);
    CHECK_EQ_INT(raid_plague_animal(6), RAID_CHICKEN);
    CHECK_EQ_INT(raid_plague_animal(7), RAID_GOAT);
    CHECK_EQ_INT(raid_plague_animal(8), RAID_PIG);
    CHECK_EQ_INT(raid_plague_animal(9), RAID_SHEEP);
    CHECK_EQ_INT(raid_plague_animal(10), RAID_COW);
    /* the text: 3 chickens and 2 ducks feed 1 villager and (besides leader and son) 4 warriors;
     * the plague takes the chickens, so 3 warriors leave; the villager still tends the ducks */
    raid_herd h = {{0}};
    h.n[RAID_CHICKEN] = 3;
    h.n[RAID_DUCK] = 2;
    int v = 1, w = 4;
    CHECK_EQ_INT(raid_settle(&h, &v, &w), 0);
    h.n[RAID_CHICKEN] = 0;
    CHECK_EQ_INT(raid_settle(&h, &v, &w), 3);
    CHECK_EQ_INT(w, 1);
    CHECK_EQ_INT(v, 1);
    /* one villager tends five animals: a sixth wanders off (the cheapest) */
    memset(&h, 0, sizeof h);
    h.n[RAID_COW] = 5;
    h.n[RAID_DUCK] = 1;
    v = 1;
    w = 0;
    raid_settle(&h, &v, &w);
    CHECK_EQ_INT(h.n[RAID_DUCK], 0);
    CHECK_EQ_INT(h.n[RAID_COW], 5);
    /* no spare villagers: the cows die, the villager and the warriors go */
    h.n[RAID_COW] = 0;
    v = 1;
    w = 3;
    CHECK_EQ_INT(raid_settle(&h, &v, &w), 3);
    CHECK_EQ_INT(v, 0);
    /* plague loss of 2 cows feeding 1 villager and 7 warriors: the cow (1 in 10) takes all 7 */
    memset(&h, 0, sizeof h);
    h.n[RAID_COW] = 2;
    CHECK(fabs(raid_plague_loss(&h, 1, 7) - 0.7) < 1e-12);
    CHECK_EQ_INT(raid_herd_food(&h), 8);
    /* the herd search keeps the food value and the tending limit */
    for (int food = 1; food <= 40; food += 3) {
        int vill = (food + 19) / 20;
        CHECK(raid_herd_for(food, RAID_TEND * vill, vill, food - vill, &h) == 0);
        CHECK_EQ_INT(raid_herd_food(&h), food);
        CHECK(raid_herd_count(&h) <= RAID_TEND * vill);
    }
    /* upkeep: W warriors and V villagers cost 2 coins each a day plus one coin of animal each */
    int vil;
    CHECK_EQ_INT(raid_buy_overhead(0, 1, &vil), 3);
    CHECK_EQ_INT(vil, 1);
    CHECK_EQ_INT(raid_buy_overhead(4, 1, &vil), 15);
    CHECK_EQ_INT(raid_buy_overhead(4, 2, &vil), 25);
    CHECK_EQ_INT(raid_buy_overhead(19, 1, &vil), 60); /* 5 cows feed 20: one villager */
    CHECK_EQ_INT(raid_buy_overhead(20, 1, &vil), 66); /* 21 food needs 6 animals: 2 villagers */
    CHECK_EQ_INT(vil, 2);
}

typedef struct bf {
    raid_kit_value kits[64];
    int nk, coins, capture, objective;
    double best;
    int chosen[8];
} bf;

/* Tries every multiset of warrior kits (indices from `from` up) on top of leader kits. */
static void bf_warriors(bf *b, int w, int wmax, int from, int spent, double val, int vill) {
    (void)vill;
    if (w == wmax) {
        if (spent > b->coins) return;
        double tot = val;
        if (b->objective == RAID_OBJ_CHEST) tot += b->coins - spent;
        if (tot > b->best) b->best = tot;
        return;
    }
    for (int i = from; i < b->nk; i++) {
        const raid_kit_value *k = &b->kits[i];
        if (spent + k->cost > b->coins) continue;
        double add = b->objective == RAID_OBJ_KILLS
                         ? k->kill
                         : (1 - k->die) * (1 + k->cost) + k->kill * b->capture;
        bf_warriors(b, w + 1, wmax, i, spent + k->cost, val + add, vill);
    }
}

/* The best objective value by brute force over villagers, warriors, leader and son kits. */
static double brute_force(bf *b) {
    b->best = -1e300;
    for (int vill = 1; vill <= 3; vill++)
        for (int w = 0; w <= 4; w++) {
            int food = w + vill;
            /* a herd of exactly `food` coins within 5 animals per villager: try all counts */
            int feasible = 0;
            for (int cows = 0; cows * 4 <= food; cows++)
                for (int sheep = 0; cows * 4 + sheep * 3 <= food; sheep++)
                    for (int pigs = 0; cows * 4 + sheep * 3 + pigs * 2 <= food; pigs++) {
                        int ducks = food - cows * 4 - sheep * 3 - pigs * 2;
                        if (cows + sheep + pigs + ducks <= 5 * vill) feasible = 1;
                    }
            if (!feasible) continue;
            int base = 2 * (w + vill) + food;
            double herd = b->objective == RAID_OBJ_CHEST ? food + vill : 0;
            for (int i = 0; i < b->nk; i++)
                for (int j = i; j < b->nk; j++) {
                    int spent = base + b->kits[i].cost + b->kits[j].cost;
                    if (spent > b->coins) continue;
                    double lv = b->objective == RAID_OBJ_KILLS
                                    ? b->kits[i].kill + b->kits[j].kill
                                    : (b->kits[i].kill + b->kits[j].kill) * b->capture;
                    bf_warriors(b, 0, w, 0, spent, lv + herd, vill);
                }
        }
    return b->best;
}

/* The optimiser against brute force on small budgets, both objectives. */
static void test_optimiser(void) {
    raid_buy_opts o;
    raid_buy_defaults(&o);
    o.items = 1u << RAID_SWORD | 1u << RAID_AXE | 1u << RAID_SPEAR | 1u << RAID_SHIELD |
              1u << RAID_HELMET | 1u << RAID_CHAIN;
    bf b;
    b.nk = raid_buy_kits(&o, b.kits, 64);
    CHECK(b.nk > 10 && b.nk < 64);
    /* every listed kit is legal, armed and made of allowed items */
    for (int i = 0; i < b.nk; i++) {
        char err[160];
        CHECK(raid_kit_check(&b.kits[i].kit, err, sizeof err) == 0);
        CHECK(raid_kit_weapons(&b.kits[i].kit) >= 1);
        CHECK(b.kits[i].kit.n[RAID_DAGGER] == 0 && b.kits[i].kit.n[RAID_BOW] == 0);
    }
    b.capture = raid_kit_weapon_value(&o.against);
    for (int obj = 0; obj < 2; obj++)
        for (int coins = 5; coins <= 19; coins += 2) {
            o.coins = coins;
            o.objective = (raid_objective)obj;
            b.coins = coins;
            b.objective = obj;
            raid_warband w;
            raid_front_point front[RAID_BUY_MAX_COINS + 1];
            int nf = 0;
            char err[200];
            int rc = raid_buy(&o, &w, front, &nf, err, sizeof err);
            CHECK(rc == 0);
            double want = brute_force(&b);
            if (fabs(w.value - want) > 1e-9)
                fprintf(stderr, "objective %d coins %d: optimiser %.9f brute force %.9f\n", obj,
                        coins, w.value, want);
            CHECK(fabs(w.value - want) < 1e-9);
            CHECK(w.spent + w.left == coins && w.left >= 0);
            /* the warband it reports adds up */
            int n = 0;
            double kills = 0;
            for (int i = 0; i < w.nkinds; i++) n += w.count[i];
            CHECK_EQ_INT(n, w.warriors);
            CHECK(raid_kit_weapons(&w.leader) >= 1 && raid_kit_weapons(&w.son) >= 1);
            int spent = raid_kit_cost(&w.leader) + raid_kit_cost(&w.son) +
                        2 * (w.warriors + w.villagers) + raid_herd_food(&w.herd);
            for (int i = 0; i < w.nkinds; i++) spent += w.count[i] * raid_kit_cost(&w.kit[i]);
            CHECK_EQ_INT(spent, w.spent);
            CHECK(raid_herd_food(&w.herd) >= w.warriors + w.villagers);
            CHECK(raid_herd_count(&w.herd) <= RAID_TEND * w.villagers);
            (void)kills;
            /* the Pareto front rises with cost and ends at the best kills */
            CHECK(nf >= 1);
            for (int i = 1; i < nf; i++)
                CHECK(front[i].cost > front[i - 1].cost && front[i].kills > front[i - 1].kills);
            if (obj == RAID_OBJ_KILLS) CHECK(fabs(front[nf - 1].kills - w.kills) < 1e-9);
        }
}

/* Budgets the optimiser must refuse. */
static void test_bad_input(void) {
    raid_buy_opts o;
    raid_buy_defaults(&o);
    raid_warband w;
    char err[200] = "";
    o.coins = 4; /* two daggers and a villager with a duck cost 5 */
    CHECK(raid_buy(&o, &w, NULL, NULL, err, sizeof err) < 0 && strstr(err, "4 coins"));
    o.coins = -1;
    CHECK(raid_buy(&o, &w, NULL, NULL, err, sizeof err) < 0 && strstr(err, "coins"));
    o.coins = 20;
    o.days = 0;
    CHECK(raid_buy(&o, &w, NULL, NULL, err, sizeof err) < 0 && strstr(err, "days"));
    o.days = 1;
    o.items = 1u << RAID_SHIELD;
    CHECK(raid_buy(&o, &w, NULL, NULL, err, sizeof err) < 0 && strstr(err, "weapon"));
    o.items = 1u << RAID_DAGGER;
    o.coins = 5;
    CHECK(raid_buy(&o, &w, NULL, NULL, err, sizeof err) == 0);
    CHECK_EQ_INT(w.warriors, 0);
    CHECK_EQ_INT(w.villagers, 1);
}

int main(void) {
    test_economy();
    test_optimiser();
    test_bad_input();
    return check_done();
}
