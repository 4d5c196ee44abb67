/*
 * Viking Raid economy: farm animals, feeding and tending, the plague, upkeep and the war chest
 * (rule text ../shared/seeds/004_*.txt; choices in docs/viking-raid.md).
 *
 * A raid_herd counts a settlement's farm animals by kind, n[kind]. Its food value is the sum of
 * the animals' prices: every coin of animal feeds one warrior or villager (leader and son of
 * leader need no food). One villager tends up to five animals, and villagers exist only to tend
 * animals: a settlement never keeps a spare villager. raid_settle() restores these invariants
 * after a loss, in this order until nothing changes: spare villagers leave, the hungry leave
 * (warriors first, then villagers), untended animals wander off (cheapest first).
 *
 * Upkeep for one day: one coin of loyalty and one coin of food per warrior and per villager,
 * paid at the start of the day (and for a figure bought during the day).
 */
#ifndef HNEFI_ENGINE_GAMES_RAID_ECON_H
#define HNEFI_ENGINE_GAMES_RAID_ECON_H

#include <stddef.h>

typedef enum raid_animal {
    RAID_DUCK,
    RAID_GOOSE,
    RAID_CHICKEN,
    RAID_GOAT,
    RAID_PIG,
    RAID_SHEEP,
    RAID_COW,
    RAID_ANIMAL_NB
} raid_animal;

enum {
    RAID_TEND = 5,         /* animals one villager tends */
    RAID_UPKEEP = 2,       /* coins per warrior or villager per day (loyalty + food) */
    RAID_START_COINS = 30, /* plus two Diamond cards */
    RAID_PONY_PRICE = 6,   /* a war pony */
    RAID_KILL_LEADER = 10, /* war chest bonus for killing an opposing leader */
    RAID_KILL_SON = 5,     /* ... and an opposing son of leader */
    RAID_HERD_EXACT = 24,  /* raid_herd_for searches every herd up to this food value */
};

typedef struct raid_herd {
    int n[RAID_ANIMAL_NB];
} raid_herd;

/* Returns the price (and food value) of one animal. */
int raid_animal_price(raid_animal a);

/* Returns the animal's name. */
const char *raid_animal_name(raid_animal a);

/* Returns the animal named s, or -1. */
int raid_animal_parse(const char *s);

/* Returns the animal the plague strikes on a D10 roll of 1..10 (1-2 ducks ... 10 cows). */
raid_animal raid_plague_animal(int d10);

/* Returns the number of animals in the herd. */
int raid_herd_count(const raid_herd *h);

/* Returns the food value of the herd (coins of animal). */
int raid_herd_food(const raid_herd *h);

/* Returns the fewest villagers that tend the herd (at least one when there are animals). */
int raid_herd_villagers(const raid_herd *h);

/* Restores the feeding and tending invariants; changes *villagers and *warriors and the herd,
 * and returns the number of warriors removed. */
int raid_settle(raid_herd *h, int *villagers, int *warriors);

/* Returns the expected number of warriors lost when the plague strikes this settlement. */
double raid_plague_loss(const raid_herd *h, int villagers, int warriors);

/* Finds the herd of food value exactly `food`, at most `most` animals, that loses the fewest
 * warriors to the plague (then has fewest animals), by exhaustive search up to RAID_HERD_EXACT
 * coins of food and by spreading the food over cows, sheep, pigs and goats beyond; 0, or -1 if
 * there is none. */
int raid_herd_for(int food, int most, int villagers, int warriors, raid_herd *out);

/* Returns the cheapest upkeep-and-feeding cost of W warriors for `days` days (their loyalty and
 * food, the fewest villagers that can tend a herd of exactly the food needed, with theirs, and
 * that herd) and sets *villagers; -1 if impossible. */
int raid_feed_cost(int warriors, int days, int *villagers);

/* Writes a herd as "2 cow, 1 duck" ("none" when empty); returns the length. */
int raid_herd_format(const raid_herd *h, char *buf, size_t n);

#endif
