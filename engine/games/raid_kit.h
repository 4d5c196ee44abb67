/*
 * Viking Raid equipment: the items a figure can carry, their prices, the limits on carrying them
 * and the modifiers they give (rule text ../shared/seeds/004_*.txt; choices in
 * docs/viking-raid.md).
 *
 * A raid_kit counts the items one figure carries, n[item]. A legal kit (raid_kit_check) holds:
 *   - at most two weapons (sword, axe, dagger, spear, long axe, bow, javelin; two javelins count
 *     as two weapons), each item at most once except the javelin (up to two);
 *   - never two +2 weapons together (spear with long axe);
 *   - an archer (bow) carries besides only a sword or a dagger; a javelin man carries one javelin
 *     and a sword or dagger, or two javelins;
 *   - a quiver only with a bow; at most one helmet, chain mail, shield, quiver and war pony.
 * Armour (helmet, chain mail, shield), the quiver and the pony are not weapons.
 *
 * Melee modifier (attack and defence alike): helmet +1, chain mail +2, plus the best of
 *   two-handed weapon (spear, long axe) +2 and the shield +1 beside it;
 *   two one-handed weapons (sword, axe, dagger) +1 each, the shield slung on the back (+0);
 *   one one-handed weapon +1 and the shield +1;
 * bow and javelin give nothing in melee (archers and javelin men fight with sword or dagger).
 * A Joker breaks the weapon in use: raid_kit_break removes the weapon with the largest melee
 * bonus, then the dearest, then the first in enum order.
 */
#ifndef HNEFI_ENGINE_GAMES_RAID_KIT_H
#define HNEFI_ENGINE_GAMES_RAID_KIT_H

#include <stddef.h>

typedef enum raid_item {
    RAID_SWORD,
    RAID_AXE,
    RAID_DAGGER,
    RAID_SPEAR,
    RAID_LONG_AXE,
    RAID_BOW,
    RAID_JAVELIN,
    RAID_SHIELD,
    RAID_HELMET,
    RAID_CHAIN,
    RAID_QUIVER,
    RAID_PONY,
    RAID_ITEM_NB
} raid_item;

enum {
    RAID_CARDS = 14,        /* cards in one suit pack: Joker 0, Ace 1 ... King 13 */
    RAID_MAX_WEAPONS = 2,   /* weapons one warrior may carry */
    RAID_KIT_TEXT_MAX = 96, /* enough for raid_kit_format of any legal kit */
};

typedef struct raid_kit {
    unsigned char n[RAID_ITEM_NB];
} raid_kit;

/* Returns the price of an item in coins. */
int raid_item_price(raid_item it);

/* Returns the command-line name of an item. */
const char *raid_item_name(raid_item it);

/* Returns the item named s (several spellings accepted), or -1. */
int raid_item_parse(const char *s);

/* Returns 1 for the items that count as weapons (and can break). */
int raid_item_is_weapon(raid_item it);

/* Reads a comma-separated item list into kit and checks it; 0, or -1 with a message. */
int raid_kit_parse(const char *text, raid_kit *kit, char *err, size_t errlen);

/* Checks the carrying limits; 0, or -1 with a message naming the broken limit. */
int raid_kit_check(const raid_kit *kit, char *err, size_t errlen);

/* Returns the total price of the kit in coins. */
int raid_kit_cost(const raid_kit *kit);

/* Returns the price of the kit's weapons only (what a victor captures). */
int raid_kit_weapon_value(const raid_kit *kit);

/* Returns the number of weapons in the kit. */
int raid_kit_weapons(const raid_kit *kit);

/* Returns the uncapped melee modifier (weapons, shield, helmet, chain mail). */
int raid_kit_melee(const raid_kit *kit);

/* Returns the bonus of the single best melee weapon (for wild beasts and the tomb). */
int raid_kit_best_weapon(const raid_kit *kit);

/* Returns the defence modifier against missiles (helmet, chain mail, shield). */
int raid_kit_missile_defence(const raid_kit *kit);

/* Removes the weapon in use (see the header comment); returns it, or -1 if none is left. */
int raid_kit_break(raid_kit *kit);

/* Writes the kit as a comma-separated list ("-" when empty); returns the length. */
int raid_kit_format(const raid_kit *kit, char *buf, size_t n);

#endif
