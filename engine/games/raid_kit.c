/* Viking Raid equipment: prices, carrying limits and modifiers (see raid_kit.h). */
#include "engine/games/raid_kit.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const int item_price[RAID_ITEM_NB] = {
    [RAID_SWORD] = 1,    [RAID_AXE] = 1,   [RAID_DAGGER] = 1,  [RAID_SPEAR] = 2,
    [RAID_LONG_AXE] = 2, [RAID_BOW] = 2,   [RAID_JAVELIN] = 2, [RAID_SHIELD] = 1,
    [RAID_HELMET] = 1,   [RAID_CHAIN] = 2, [RAID_QUIVER] = 2,  [RAID_PONY] = 6,
};

static const char *const item_name[RAID_ITEM_NB] = {
    [RAID_SWORD] = "sword",     [RAID_AXE] = "axe",           [RAID_DAGGER] = "dagger",
    [RAID_SPEAR] = "spear",     [RAID_LONG_AXE] = "long-axe", [RAID_BOW] = "bow",
    [RAID_JAVELIN] = "javelin", [RAID_SHIELD] = "shield",     [RAID_HELMET] = "helmet",
    [RAID_CHAIN] = "chain",     [RAID_QUIVER] = "quiver",     [RAID_PONY] = "pony",
};

/* Melee bonus of a weapon held in the hands (bow and javelin: none). */
static const int item_melee[RAID_ITEM_NB] = {
    [RAID_SWORD] = 1, [RAID_AXE] = 1, [RAID_DAGGER] = 1, [RAID_SPEAR] = 2, [RAID_LONG_AXE] = 2,
};

/* Returns the price of an item in coins. */
int raid_item_price(raid_item it) {
    return (unsigned)it < RAID_ITEM_NB ? item_price[it] : 0;
}

/* Returns the command-line name of an item. */
const char *raid_item_name(raid_item it) {
    return (unsigned)it < RAID_ITEM_NB ? item_name[it] : "?";
}

/* Returns the item named s (several spellings accepted), or -1. */
int raid_item_parse(const char *s) {
    static const struct {
        const char *name;
        raid_item it;
    } alias[] = {
        {"longaxe", RAID_LONG_AXE}, {"long_axe", RAID_LONG_AXE}, {"long axe", RAID_LONG_AXE},
        {"chain-mail", RAID_CHAIN}, {"chainmail", RAID_CHAIN},   {"chain mail", RAID_CHAIN},
        {"chain_mail", RAID_CHAIN}, {"mail", RAID_CHAIN},        {"javelins", RAID_JAVELIN},
        {"war-pony", RAID_PONY},    {"arrows", RAID_QUIVER},
    };
    char low[32];
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof low) return -1;
    for (size_t i = 0; i <= len; i++) low[i] = (char)tolower((unsigned char)s[i]);
    for (int i = 0; i < RAID_ITEM_NB; i++)
        if (strcmp(low, item_name[i]) == 0) return i;
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (strcmp(low, alias[i].name) == 0) return (int)alias[i].it;
    return -1;
}

/* Returns 1 for the items that count as weapons (and can break). */
int raid_item_is_weapon(raid_item it) {
    return it <= RAID_JAVELIN;
}

/* Reads a comma-separated item list into kit and checks it. */
int raid_kit_parse(const char *text, raid_kit *kit, char *err, size_t errlen) {
    memset(kit, 0, sizeof *kit);
    if (!text) {
        snprintf(err, errlen, "missing equipment list");
        return -1;
    }
    const char *p = text;
    while (*p == ' ') p++;
    if (*p == '\0' || strcmp(p, "-") == 0 || strcmp(p, "none") == 0) return 0;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && isspace((unsigned char)*a)) a++;
        while (b > a && isspace((unsigned char)b[-1])) b--;
        char word[32];
        size_t len = (size_t)(b - a);
        if (len == 0) {
            snprintf(err, errlen, "empty item in equipment list \"%s\"", text);
            return -1;
        }
        if (len >= sizeof word) len = sizeof word - 1;
        memcpy(word, a, len);
        word[len] = '\0';
        int it = raid_item_parse(word);
        if (it < 0) {
            snprintf(err, errlen,
                     "unknown equipment item \"%s\" (known: sword, axe, dagger, spear, long-axe, "
                     "bow, javelin, shield, helmet, chain, quiver, pony)",
                     word);
            return -1;
        }
        if (kit->n[it] < 255) kit->n[it]++;
        p = *end ? end + 1 : end;
    }
    return raid_kit_check(kit, err, errlen);
}

/* Checks the carrying limits. */
int raid_kit_check(const raid_kit *kit, char *err, size_t errlen) {
    for (int i = 0; i < RAID_ITEM_NB; i++) {
        int most = i == RAID_JAVELIN ? 2 : 1;
        if (kit->n[i] > most) {
            snprintf(err, errlen, "at most %d %s%s per warrior", most, item_name[i],
                     most > 1 ? "s" : "");
            return -1;
        }
    }
    if (raid_kit_weapons(kit) > RAID_MAX_WEAPONS) {
        snprintf(err, errlen, "a warrior can only have 2 weapons (this kit has %d)",
                 raid_kit_weapons(kit));
        return -1;
    }
    if (kit->n[RAID_SPEAR] && kit->n[RAID_LONG_AXE]) {
        snprintf(err, errlen, "conflicting weapons: spear and long-axe (no two +2 weapons)");
        return -1;
    }
    if (kit->n[RAID_BOW] &&
        (kit->n[RAID_AXE] || kit->n[RAID_SPEAR] || kit->n[RAID_LONG_AXE] || kit->n[RAID_JAVELIN])) {
        snprintf(err, errlen, "conflicting weapons: an archer can only add a dagger or a sword");
        return -1;
    }
    if (kit->n[RAID_JAVELIN] && (kit->n[RAID_AXE] || kit->n[RAID_SPEAR] || kit->n[RAID_LONG_AXE])) {
        snprintf(err, errlen,
                 "conflicting weapons: a javelin man carries a javelin and a sword or dagger, "
                 "or two javelins");
        return -1;
    }
    if (kit->n[RAID_QUIVER] && !kit->n[RAID_BOW]) {
        snprintf(err, errlen, "a quiver needs a bow");
        return -1;
    }
    return 0;
}

/* Returns the total price of the kit in coins. */
int raid_kit_cost(const raid_kit *kit) {
    int c = 0;
    for (int i = 0; i < RAID_ITEM_NB; i++) c += kit->n[i] * item_price[i];
    return c;
}

/* Returns the price of the kit's weapons only (what a victor captures). */
int raid_kit_weapon_value(const raid_kit *kit) {
    int c = 0;
    for (int i = 0; i <= RAID_JAVELIN; i++) c += kit->n[i] * item_price[i];
    return c;
}

/* Returns the number of weapons in the kit. */
int raid_kit_weapons(const raid_kit *kit) {
    int w = 0;
    for (int i = 0; i <= RAID_JAVELIN; i++) w += kit->n[i];
    return w;
}

/* Returns the uncapped melee modifier (weapons, shield, helmet, chain mail). */
int raid_kit_melee(const raid_kit *kit) {
    int one = kit->n[RAID_SWORD] + kit->n[RAID_AXE] + kit->n[RAID_DAGGER];
    int two = kit->n[RAID_SPEAR] || kit->n[RAID_LONG_AXE];
    int shield = kit->n[RAID_SHIELD] ? 1 : 0;
    int hands = shield; /* no melee weapon: the shield alone */
    if (two && 2 + shield > hands) hands = 2 + shield;
    if (one >= 2 && 2 > hands) hands = 2; /* both hands full: shield slung */
    if (one == 1 && 1 + shield > hands) hands = 1 + shield;
    return hands + (kit->n[RAID_HELMET] ? 1 : 0) + (kit->n[RAID_CHAIN] ? 2 : 0);
}

/* Returns the bonus of the single best melee weapon (for wild beasts and the tomb). */
int raid_kit_best_weapon(const raid_kit *kit) {
    int best = 0;
    for (int i = 0; i <= RAID_JAVELIN; i++)
        if (kit->n[i] && item_melee[i] > best) best = item_melee[i];
    return best;
}

/* Returns the defence modifier against missiles (helmet, chain mail, shield). */
int raid_kit_missile_defence(const raid_kit *kit) {
    return (kit->n[RAID_HELMET] ? 1 : 0) + (kit->n[RAID_CHAIN] ? 2 : 0) +
           (kit->n[RAID_SHIELD] ? 1 : 0);
}

/* Removes the weapon in use (see the header comment); returns it, or -1 if none is left. */
int raid_kit_break(raid_kit *kit) {
    int best = -1;
    for (int i = 0; i <= RAID_JAVELIN; i++) {
        if (!kit->n[i]) continue;
        if (best < 0 || item_melee[i] > item_melee[best] ||
            (item_melee[i] == item_melee[best] && item_price[i] > item_price[best]))
            best = i;
    }
    if (best >= 0) {
        kit->n[best]--;
        if (best == RAID_BOW) kit->n[RAID_QUIVER] = 0; /* arrows are useless without the bow */
    }
    return best;
}

/* Writes the kit as a comma-separated list ("-" when empty); returns the length. */
int raid_kit_format(const raid_kit *kit, char *buf, size_t n) {
    size_t len = 0;
    if (n) buf[0] = '\0';
    for (int i = 0; i < RAID_ITEM_NB; i++)
        for (int k = 0; k < kit->n[i]; k++) {
            int w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%s",
                             len ? "," : "", item_name[i]);
            if (w > 0) len += (size_t)w;
        }
    if (len == 0) return snprintf(buf, n, "-");
    return (int)len;
}
