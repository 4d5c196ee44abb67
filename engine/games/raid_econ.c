/* Viking Raid economy: animals, feeding, tending and the plague (see raid_econ.h). */
#include "engine/games/raid_econ.h"

#include <stdio.h>
#include <string.h>

static const int animal_price[RAID_ANIMAL_NB] = {1, 1, 1, 2, 2, 3, 4};
static const char *const animal_name[RAID_ANIMAL_NB] = {"duck", "goose", "chicken", "goat",
                                                        "pig",  "sheep", "cow"};

/* Returns the price (and food value) of one animal. */
int raid_animal_price(raid_animal a) {
    return animal_price[a];
}

/* Returns the animal's name. */
const char *raid_animal_name(raid_animal a) {
    return (unsigned)a < RAID_ANIMAL_NB ? animal_name[a] : "?";
}

/* Returns the animal named s, or -1. */
int raid_animal_parse(const char *s) {
    for (int i = 0; i < RAID_ANIMAL_NB; i++)
        if (strcmp(s, animal_name[i]) == 0) return i;
    if (strcmp(s, "geese") == 0) return RAID_GOOSE;
    return -1;
}

/* Returns the animal the plague strikes on a D10 roll of 1..10. */
raid_animal raid_plague_animal(int d10) {
    static const raid_animal table[11] = {RAID_DUCK,  RAID_DUCK,    RAID_DUCK,    RAID_GOOSE,
                                          RAID_GOOSE, RAID_CHICKEN, RAID_CHICKEN, RAID_GOAT,
                                          RAID_PIG,   RAID_SHEEP,   RAID_COW};
    if (d10 < 1) d10 = 1;
    if (d10 > 10) d10 = 10;
    return table[d10];
}

/* Returns the number of animals in the herd. */
int raid_herd_count(const raid_herd *h) {
    int n = 0;
    for (int i = 0; i < RAID_ANIMAL_NB; i++) n += h->n[i];
    return n;
}

/* Returns the food value of the herd (coins of animal). */
int raid_herd_food(const raid_herd *h) {
    int f = 0;
    for (int i = 0; i < RAID_ANIMAL_NB; i++) f += h->n[i] * animal_price[i];
    return f;
}

/* Returns the fewest villagers that tend the herd. */
int raid_herd_villagers(const raid_herd *h) {
    return (raid_herd_count(h) + RAID_TEND - 1) / RAID_TEND;
}

/* Restores the feeding and tending invariants. */
int raid_settle(raid_herd *h, int *villagers, int *warriors) {
    int lost = 0;
    for (;;) {
        int changed = 0;
        int need = raid_herd_villagers(h);
        if (*villagers > need) { /* no spare villagers */
            *villagers = need;
            changed = 1;
        }
        int hungry = *villagers + *warriors - raid_herd_food(h);
        if (hungry > 0) { /* warriors leave first, then villagers */
            int w = hungry < *warriors ? hungry : *warriors;
            *warriors -= w;
            lost += w;
            *villagers -= hungry - w;
            changed = 1;
        }
        int untended = raid_herd_count(h) - RAID_TEND * *villagers;
        for (int a = 0; a < RAID_ANIMAL_NB && untended > 0; a++) {
            while (h->n[a] > 0 && untended > 0) {
                h->n[a]--;
                untended--;
                changed = 1;
            }
        }
        if (!changed) return lost;
    }
}

/* Returns the expected number of warriors lost when the plague strikes this settlement. */
double raid_plague_loss(const raid_herd *h, int villagers, int warriors) {
    double tot = 0;
    for (int d = 1; d <= 10; d++) {
        raid_herd c = *h;
        int v = villagers, w = warriors;
        c.n[raid_plague_animal(d)] = 0;
        tot += raid_settle(&c, &v, &w);
    }
    return tot / 10;
}

/* Searches herds of exact food value, keeping the best one found in *best. */
static void herd_search(int kind, int food, int most, int villagers, int warriors, raid_herd *cur,
                        raid_herd *best, double *best_loss, int *best_count) {
    if (kind == RAID_ANIMAL_NB) {
        if (food != 0) return;
        int cnt = raid_herd_count(cur);
        if (cnt > most) return;
        double loss = raid_plague_loss(cur, villagers, warriors);
        if (loss < *best_loss - 1e-12 || (loss < *best_loss + 1e-12 && cnt < *best_count)) {
            *best = *cur;
            *best_loss = loss;
            *best_count = cnt;
        }
        return;
    }
    int p = animal_price[kind];
    cur->n[kind] = 0;
    int have = raid_herd_count(cur);
    for (int k = 0; k * p <= food && have + k <= most; k++) {
        cur->n[kind] = k;
        herd_search(kind + 1, food - k * p, most, villagers, warriors, cur, best, best_loss,
                    best_count);
    }
    cur->n[kind] = 0;
}

/* Finds the herd of exact food value and at most `most` animals that the plague hurts least. */
int raid_herd_for(int food, int most, int villagers, int warriors, raid_herd *out) {
    raid_herd cur, best;
    memset(&cur, 0, sizeof cur);
    memset(&best, 0, sizeof best);
    double best_loss = 1e300;
    int best_count = 1 << 30;
    if (food <= RAID_HERD_EXACT) {
        herd_search(0, food, most, villagers, warriors, &cur, &best, &best_loss, &best_count);
        if (best_loss > 1e299) return -1;
        *out = best;
        return 0;
    }
    /* larger herds: spread the food over the kinds the D10 names least often, dearest first */
    static const raid_animal cycle[] = {RAID_COW, RAID_SHEEP, RAID_PIG, RAID_GOAT};
    int left = food, count = 0;
    for (int i = 0; left > 0; i = (i + 1) % 4) {
        raid_animal a = cycle[i];
        if (animal_price[a] > left) a = left == 1 ? RAID_CHICKEN : RAID_GOAT;
        /* keep the rest buyable with the animals still allowed (cows if need be) */
        int rest = left - animal_price[a];
        if ((rest + 3) / 4 > most - count - 1) a = RAID_COW;
        if (animal_price[a] > left) a = left == 1 ? RAID_CHICKEN : RAID_GOAT;
        cur.n[a]++;
        count++;
        left -= animal_price[a] < left ? animal_price[a] : left;
    }
    if (raid_herd_count(&cur) > most) return -1;
    *out = cur;
    return 0;
}

/* Returns the cheapest upkeep-and-feeding cost of W warriors and sets *villagers. */
int raid_feed_cost(int warriors, int days, int *villagers) {
    for (int v = 1; v <= warriors + 1; v++) {
        int food = warriors + v;
        int fewest_animals = (food + 3) / 4; /* cows */
        if (fewest_animals <= RAID_TEND * v) {
            *villagers = v;
            return RAID_UPKEEP * days * (warriors + v) + food;
        }
    }
    return -1;
}

/* Writes a herd as "2 cow, 1 duck"; returns the length. */
int raid_herd_format(const raid_herd *h, char *buf, size_t n) {
    size_t len = 0;
    if (n) buf[0] = '\0';
    for (int a = RAID_ANIMAL_NB - 1; a >= 0; a--) {
        if (!h->n[a]) continue;
        int w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%d %s",
                         len ? ", " : "", h->n[a], animal_name[a]);
        if (w > 0) len += (size_t)w;
    }
    if (len == 0) return snprintf(buf, n, "none");
    return (int)len;
}
