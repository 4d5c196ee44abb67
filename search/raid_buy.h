/*
 * Viking Raid loadout optimiser: what to buy with a budget (docs/viking-raid.md, "Buying").
 *
 * A warband is the leader's and the son of leader's kits (each with at least one weapon; they
 * need no upkeep and no food), W warriors with their kits, V villagers and a herd. Costs: every
 * item at its price; each warrior and villager RAID_UPKEEP coins per day paid ahead for `days`
 * days, and one coin of farm animal to feed it; one villager per five animals, at least one.
 *
 * A kit's strength is its exact chance to win one melee (kill, or the enemy's surrender) when
 * it attacks the reference warrior `against`; the warband's strength is the sum over its fighting
 * figures (expected kills if each fights once). The war-chest objective values the warband as the
 * war chest after those fights: coins left, herd, villagers, each warrior's 1 coin and kit times
 * his chance to survive, and the weapons captured from kills.
 *
 * The optimiser is exact for this model: for each warrior count W it takes the cheapest feeding
 * (fewest villagers), then a dynamic programme over (number of kits, exact kit cost) picks the
 * kits; kits are enumerated from the allowed items and checked with raid_kit_check.
 */
#ifndef HNEFI_SEARCH_RAID_BUY_H
#define HNEFI_SEARCH_RAID_BUY_H

#include <stddef.h>

#include "engine/games/raid_combat.h"
#include "engine/games/raid_econ.h"

enum { RAID_BUY_MAX_COINS = 400, RAID_BUY_MAX_KINDS = 32, RAID_BUY_MAX_KITS = 512 };

typedef enum raid_objective { RAID_OBJ_KILLS, RAID_OBJ_CHEST } raid_objective;

typedef struct raid_buy_opts {
    int coins;             /* the budget */
    raid_kit against;      /* the reference enemy warrior */
    raid_melee_opts melee; /* how the fights are fought */
    raid_objective objective;
    int days;         /* days of upkeep paid ahead (>= 1) */
    unsigned items;   /* bit (1 << raid_item) set: the item may be bought */
    int max_warriors; /* <0: no limit */
} raid_buy_opts;

/* One kit the optimiser may buy, with its values. */
typedef struct raid_kit_value {
    raid_kit kit;
    int cost;
    double kill; /* wins the fight against the reference */
    double die;  /* is killed, surrenders or is removed */
} raid_kit_value;

typedef struct raid_warband {
    raid_kit leader, son;
    int warriors, villagers;
    int nkinds;
    raid_kit kit[RAID_BUY_MAX_KINDS];
    int count[RAID_BUY_MAX_KINDS];
    raid_herd herd;
    int spent, left;
    double kills;  /* expected kills, leader and son included */
    double chest;  /* expected war chest after one fight each */
    double value;  /* the objective */
    double plague; /* expected warriors lost if the plague strikes */
} raid_warband;

typedef struct raid_front_point {
    int cost;
    double kills;
} raid_front_point;

/* Fills opts with the defaults: 40 coins, against "sword,shield", kills, one day, every item but
 * the quiver and the pony. */
void raid_buy_defaults(raid_buy_opts *o);

/* Lists the legal kits with at least one weapon made of allowed items, with their values;
 * returns the count (at most max). */
int raid_buy_kits(const raid_buy_opts *o, raid_kit_value *out, int max);

/* Returns the cheapest upkeep-and-feeding cost of W warriors and sets *villagers, or -1. */
int raid_buy_overhead(int warriors, int days, int *villagers);

/* Finds the best warband; front (may be NULL, room for coins + 1 points) gets the Pareto front of
 * cost against expected kills. Returns 0, or -1 with a message when nothing is affordable. */
int raid_buy(const raid_buy_opts *o, raid_warband *best, raid_front_point *front, int *nfront,
             char *err, size_t errlen);

#endif
