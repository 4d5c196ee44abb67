/* Viking Raid loadout optimiser: exact dynamic programme over warriors and kits (see raid_buy.h).
 */
#include "search/raid_buy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fills opts with the defaults. */
void raid_buy_defaults(raid_buy_opts *o) {
    memset(o, 0, sizeof *o);
    o->coins = 40;
    o->against.n[RAID_SWORD] = 1;
    o->against.n[RAID_SHIELD] = 1;
    o->objective = RAID_OBJ_KILLS;
    o->days = 1;
    o->items = ((1u << RAID_ITEM_NB) - 1) & ~(1u << RAID_QUIVER) & ~(1u << RAID_PONY);
    o->max_warriors = -1;
}

/* Enumerates item counts recursively, keeping the legal kits with a weapon. */
static void kits_rec(const raid_buy_opts *o, int item, raid_kit *cur, raid_kit_value *out, int *n,
                     int max) {
    if (item == RAID_ITEM_NB) {
        char err[160];
        if (*n >= max || raid_kit_weapons(cur) == 0 || raid_kit_check(cur, err, sizeof err)) return;
        raid_kit_value *kv = &out[(*n)++];
        kv->kit = *cur;
        kv->cost = raid_kit_cost(cur);
        raid_duel d;
        raid_fight f;
        raid_melee_duel(&d, cur, &o->against, &o->melee);
        raid_duel_solve(&d, &f);
        kv->kill = f.p[RAID_END_A_KILLS] + f.p[RAID_END_D_SURRENDERS];
        kv->die = f.p[RAID_END_D_KILLS] + f.p[RAID_END_A_SURRENDERS] + f.p[RAID_END_BOTH_REMOVED];
        return;
    }
    int most = (o->items >> item & 1) ? (item == RAID_JAVELIN ? 2 : 1) : 0;
    for (int k = 0; k <= most; k++) {
        cur->n[item] = (unsigned char)k;
        kits_rec(o, item + 1, cur, out, n, max);
    }
    cur->n[item] = 0;
}

/* Lists the legal kits with at least one weapon made of allowed items, with their values. */
int raid_buy_kits(const raid_buy_opts *o, raid_kit_value *out, int max) {
    raid_kit cur;
    memset(&cur, 0, sizeof cur);
    int n = 0;
    kits_rec(o, 0, &cur, out, &n, max);
    return n;
}

/* Returns the cheapest upkeep-and-feeding cost of W warriors and sets *villagers. */
int raid_buy_overhead(int warriors, int days, int *villagers) {
    return raid_feed_cost(warriors, days, villagers);
}

/* Returns a warrior kit's objective value. */
static double warrior_value(const raid_buy_opts *o, const raid_kit_value *kv, int capture) {
    if (o->objective == RAID_OBJ_KILLS) return kv->kill;
    return (1 - kv->die) * (1 + kv->cost) + kv->kill * capture;
}

/* Returns the objective value of a leader's (or son's) kit: his kills; in the war chest only the
 * weapons he captures count. */
static double leader_value(const raid_buy_opts *o, const raid_kit_value *kv, int capture) {
    if (o->objective == RAID_OBJ_KILLS) return kv->kill;
    return kv->kill * capture;
}

/* best[k][c] = most value of k kits of exact total cost c (-inf when impossible); arg[k][c] =
 * the last kit chosen. */
typedef struct kit_dp {
    int kmax, cmax;
    double *best;
    int *arg;
} kit_dp;

/* Runs the kit knapsack for up to kmax kits and cost cmax with per-kit values val[]. */
static int kit_dp_run(kit_dp *dp, const raid_kit_value *kits, const double *val, int nk, int kmax,
                      int cmax) {
    dp->kmax = kmax;
    dp->cmax = cmax;
    size_t cells = (size_t)(kmax + 1) * (size_t)(cmax + 1);
    dp->best = malloc(cells * sizeof *dp->best);
    dp->arg = malloc(cells * sizeof *dp->arg);
    if (!dp->best || !dp->arg) return -1;
    for (size_t i = 0; i < cells; i++) {
        dp->best[i] = -INFINITY;
        dp->arg[i] = -1;
    }
    dp->best[0] = 0;
    for (int k = 1; k <= kmax; k++)
        for (int c = 0; c <= cmax; c++) {
            double *cell = &dp->best[(size_t)k * (size_t)(cmax + 1) + (size_t)c];
            for (int i = 0; i < nk; i++) {
                if (kits[i].cost > c) continue;
                double prev =
                    dp->best[(size_t)(k - 1) * (size_t)(cmax + 1) + (size_t)(c - kits[i].cost)];
                if (prev == -INFINITY) continue;
                if (prev + val[i] > *cell + 1e-12) {
                    *cell = prev + val[i];
                    dp->arg[(size_t)k * (size_t)(cmax + 1) + (size_t)c] = i;
                }
            }
        }
    return 0;
}

/* Returns best[k][c]. */
static double kit_dp_at(const kit_dp *dp, int k, int c) {
    return dp->best[(size_t)k * (size_t)(dp->cmax + 1) + (size_t)c];
}

/* Frees the tables. */
static void kit_dp_free(kit_dp *dp) {
    free(dp->best);
    free(dp->arg);
}

/* Adds one kit to the warband's list of kinds. */
static void band_add(raid_warband *b, const raid_kit *k) {
    for (int i = 0; i < b->nkinds; i++)
        if (memcmp(&b->kit[i], k, sizeof *k) == 0) {
            b->count[i]++;
            return;
        }
    if (b->nkinds < RAID_BUY_MAX_KINDS) {
        b->kit[b->nkinds] = *k;
        b->count[b->nkinds++] = 1;
    }
}

/* The best choice found so far. */
typedef struct pick {
    double value;
    int spent, w, cl, cw;
} pick;

/* Finds the best warband and the Pareto front of cost against expected kills. */
int raid_buy(const raid_buy_opts *o, raid_warband *best, raid_front_point *front, int *nfront,
             char *err, size_t errlen) {
    if (o->coins < 0 || o->coins > RAID_BUY_MAX_COINS) {
        snprintf(err, errlen, "coins must be from 0 to %d", RAID_BUY_MAX_COINS);
        return -1;
    }
    if (o->days < 1) {
        snprintf(err, errlen, "days must be at least 1");
        return -1;
    }
    static raid_kit_value kits[RAID_BUY_MAX_KITS];
    int nk = raid_buy_kits(o, kits, RAID_BUY_MAX_KITS);
    if (nk == 0) {
        snprintf(err, errlen, "no legal kit with a weapon can be made of the allowed items");
        return -1;
    }
    int B = o->coins, capture = raid_kit_weapon_value(&o->against);
    int wmax = B / (RAID_UPKEEP * o->days + 2);
    if (o->max_warriors >= 0 && wmax > o->max_warriors) wmax = o->max_warriors;
    double *wv = malloc((size_t)nk * sizeof *wv), *lv = malloc((size_t)nk * sizeof *lv);
    double *kv = malloc((size_t)nk * sizeof *kv);
    if (!wv || !lv || !kv) {
        free(wv);
        free(lv);
        free(kv);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < nk; i++) {
        wv[i] = warrior_value(o, &kits[i], capture);
        lv[i] = leader_value(o, &kits[i], capture);
        kv[i] = kits[i].kill;
    }
    kit_dp war = {0}, lead = {0}, wk = {0}, lk = {0};
    int chest = o->objective == RAID_OBJ_CHEST;
    int bad = kit_dp_run(&war, kits, wv, nk, wmax, B) || kit_dp_run(&lead, kits, lv, nk, 2, B);
    if (!bad && chest) /* the front is always in expected kills */
        bad = kit_dp_run(&wk, kits, kv, nk, wmax, B) || kit_dp_run(&lk, kits, kv, nk, 2, B);
    const kit_dp *fw = chest ? &wk : &war, *fl = chest ? &lk : &lead;
    pick top = {-INFINITY, 0, -1, 0, 0};
    double *fr = malloc((size_t)(B + 1) * sizeof *fr);
    if (bad || !fr) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int c = 0; c <= B; c++) fr[c] = -INFINITY;
    for (int w = 0; w <= wmax; w++) {
        int v = 1;
        int over = raid_buy_overhead(w, o->days, &v);
        if (over < 0 || over > B) continue;
        int rem = B - over;
        for (int cl = 0; cl <= rem; cl++) {
            double l = kit_dp_at(&lead, 2, cl), lf = kit_dp_at(fl, 2, cl);
            if (l == -INFINITY) continue;
            for (int cw = 0; cl + cw <= rem; cw++) {
                double x = kit_dp_at(&war, w, cw);
                if (x == -INFINITY) continue;
                int spent = over + cl + cw;
                double val = l + x;
                if (chest) val += (B - spent) + (w + v) + v; /* coins left, herd, villagers */
                if (val > top.value + 1e-12 || (val > top.value - 1e-12 && spent < top.spent)) {
                    top.value = val;
                    top.spent = spent;
                    top.w = w;
                    top.cl = cl;
                    top.cw = cw;
                }
                double xf = kit_dp_at(fw, w, cw);
                if (xf != -INFINITY && lf + xf > fr[spent]) fr[spent] = lf + xf;
            }
        }
    }
    if (top.w < 0) {
        snprintf(err, errlen,
                 "%d coins cannot buy the least warband (a weapon each for leader and son, one "
                 "villager and an animal to feed him)",
                 B);
        goto out;
    }
    /* rebuild the chosen warband */
    memset(best, 0, sizeof *best);
    int v = 1;
    raid_buy_overhead(top.w, o->days, &v);
    best->warriors = top.w;
    best->villagers = v;
    for (int k = top.w, c = top.cw; k > 0; k--) {
        int i = war.arg[(size_t)k * (size_t)(B + 1) + (size_t)c];
        band_add(best, &kits[i].kit);
        best->kills += kits[i].kill;
        best->chest +=
            warrior_value(&(raid_buy_opts){.objective = RAID_OBJ_CHEST}, &kits[i], capture);
        c -= kits[i].cost;
    }
    for (int k = 2, c = top.cl; k > 0; k--) {
        int i = lead.arg[(size_t)k * (size_t)(B + 1) + (size_t)c];
        if (k == 2)
            best->leader = kits[i].kit;
        else
            best->son = kits[i].kit;
        best->kills += kits[i].kill;
        best->chest += kits[i].kill * capture;
        c -= kits[i].cost;
    }
    best->spent = top.spent;
    best->left = B - top.spent;
    best->value = top.value;
    if (raid_herd_for(top.w + v, RAID_TEND * v, v, top.w, &best->herd) < 0)
        memset(&best->herd, 0, sizeof best->herd);
    best->chest += best->left + raid_herd_food(&best->herd) + v;
    best->plague = raid_plague_loss(&best->herd, v, top.w);
    if (front && nfront) {
        *nfront = 0;
        double last = -INFINITY;
        for (int c = 0; c <= B; c++)
            if (fr[c] > last + 1e-12) {
                front[*nfront].cost = c;
                front[*nfront].kills = fr[c];
                (*nfront)++;
                last = fr[c];
            }
    }
out:
    kit_dp_free(&war);
    kit_dp_free(&lead);
    kit_dp_free(&wk);
    kit_dp_free(&lk);
    free(fr);
    free(wv);
    free(lv);
    free(kv);
    return top.w < 0 ? -1 : 0;
}
