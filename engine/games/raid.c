/* Viking Raid: the abstract raid day as a game_def (see raid.h and docs/viking-raid.md). */
#include "engine/games/raid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/games/raid_combat.h"

const char *const raid_day_kit[RAID_DAY_KITS + 1] = {
    "axe,dagger",        "sword,shield,helmet",       "spear,sword,helmet,chain",
    "bow,quiver,dagger", "sword,shield,helmet,chain", /* leader and son */
};

enum { NKIT = RAID_DAY_KITS + 1, FIGHT_A = 0, FIGHT_D = 1, FIGHT_BOTH = 2 };

/* Exact odds the day needs, computed once per thread (the engine knows no locks). */
typedef struct day_odds {
    int ready;
    int berserk;
    raid_kit kit[NKIT];
    int cost[NKIT];
    double fight[NKIT][NKIT][2][3]; /* [attacker][defender][long move][A wins, D wins, both] */
    double tomb[NKIT];              /* the figure slays the Dead Viking King */
    double hunt[NKIT][RAID_BEAST_NB];
    double volley[NKIT][3]; /* an archer's volley of 1 or 2 shots kills a man of kit */
    double beast_kill[RAID_BEAST_NB];
} day_odds;

static _Thread_local day_odds odds;

/* Fills the odds tables for the berserker setting. */
static const day_odds *get_odds(int berserk) {
    if (odds.ready && odds.berserk == berserk) return &odds;
    char err[160];
    for (int k = 0; k < NKIT; k++) {
        raid_kit_parse(raid_day_kit[k], &odds.kit[k], err, sizeof err);
        odds.cost[k] = raid_kit_cost(&odds.kit[k]);
    }
    for (int a = 0; a < NKIT; a++) {
        for (int d = 0; d < NKIT; d++)
            for (int m = 0; m < 2; m++) {
                raid_melee_opts o = {0};
                o.moved = m;
                o.berserk = berserk ? RAID_BERSERK_SUM : RAID_BERSERK_OFF;
                raid_duel du;
                raid_fight f;
                raid_melee_duel(&du, &odds.kit[a], &odds.kit[d], &o);
                raid_duel_solve(&du, &f);
                odds.fight[a][d][m][FIGHT_A] = f.p[RAID_END_A_KILLS] + f.p[RAID_END_D_SURRENDERS];
                odds.fight[a][d][m][FIGHT_D] = f.p[RAID_END_D_KILLS] + f.p[RAID_END_A_SURRENDERS];
                odds.fight[a][d][m][FIGHT_BOTH] =
                    1 - odds.fight[a][d][m][FIGHT_A] - odds.fight[a][d][m][FIGHT_D];
            }
        raid_duel du;
        raid_fight f;
        raid_tomb_duel(&du, &odds.kit[a]);
        raid_duel_solve(&du, &f);
        odds.tomb[a] = f.p[RAID_END_A_KILLS];
        for (int b = 0; b < RAID_BEAST_NB; b++) {
            raid_beast_duel(&du, (raid_beast)b, &odds.kit[a]);
            raid_duel_solve(&du, &f);
            odds.hunt[a][b] =
                f.p[RAID_END_A_KILLS] / (f.p[RAID_END_A_KILLS] + f.p[RAID_END_D_KILLS]);
        }
        for (int s = 1; s <= 2; s++) {
            raid_volley v;
            raid_missile(RAID_BOW, s, RAID_TARGET_WARRIOR, raid_kit_missile_defence(&odds.kit[a]),
                         RAID_ANIMAL_ZERO, &v);
            odds.volley[a][s] = v.kill;
        }
    }
    for (int b = 0; b < RAID_BEAST_NB; b++) odds.beast_kill[b] = raid_beast_attack((raid_beast)b);
    odds.berserk = berserk;
    odds.ready = 1;
    return &odds;
}

/* Returns the coins the starting purchase costs, or -1 if it is not possible. */
int raid_day_buy_cost(int kit, int warriors) {
    if (kit < 0 || kit >= RAID_DAY_KITS || warriors < 0 || warriors > RAID_BUY_MAX_N) return -1;
    const day_odds *o = get_odds(odds.ready ? odds.berserk : 0);
    int v;
    int over = raid_feed_cost(warriors, 1, &v);
    if (over < 0) return -1;
    return 2 * o->cost[RAID_DAY_LEADER_KIT] + over + warriors * o->cost[kit];
}

/* Returns the war chest of player p. */
int raid_day_chest(const raid_state *s, int p) {
    const raid_player *pl = &s->pl[p];
    const day_odds *o = get_odds(s->opt_berserk);
    raid_herd h;
    for (int a = 0; a < RAID_ANIMAL_NB; a++) h.n[a] = pl->herd[a];
    return pl->coins + raid_herd_food(&h) + pl->villagers +
           (pl->home + pl->party) * (1 + o->cost[pl->kit]) + pl->captured + pl->bonus;
}

/* Returns the ring distance in inches between settlements i and j. */
static int distance(const raid_state *s, int i, int j) {
    int d = abs(i - j);
    if (s->np - d < d) d = s->np - d;
    return d * s->opt_spacing;
}

/* Restores feeding and tending for player p; the hungry leave from home first. */
static void settle(raid_state *s, int p) {
    raid_player *pl = &s->pl[p];
    raid_herd h;
    for (int a = 0; a < RAID_ANIMAL_NB; a++) h.n[a] = pl->herd[a];
    int v = pl->villagers, w = pl->home + pl->party;
    int lost = raid_settle(&h, &v, &w);
    for (int a = 0; a < RAID_ANIMAL_NB; a++) pl->herd[a] = (uint8_t)h.n[a];
    pl->villagers = (uint8_t)v;
    int from_home = lost < pl->home ? lost : pl->home;
    pl->home -= (uint8_t)from_home;
    pl->party -= (uint8_t)(lost - from_home);
    if (pl->party == 0 && pl->target != RAID_TGT_NONE) pl->target = RAID_TGT_NONE;
}

/* Returns the number of defenders (warriors at home, son, leader) left at settlement q. */
static int defenders(const raid_state *s, int q) {
    return s->pl[q].home + s->pl[q].son + s->pl[q].leader;
}

/* Returns the kit index of the next defender at q. */
static int defender_kit(const raid_state *s, int q) {
    return s->pl[q].home ? s->pl[q].kit : RAID_DAY_LEADER_KIT;
}

/* Moves play on to the next player (or hour, or the end). */
static void next_player(raid_state *s) {
    int alive = 0;
    for (int p = 0; p < s->np; p++) alive += !s->pl[p].out;
    if (!alive) {
        s->phase = RAID_PH_OVER;
        return;
    }
    for (;;) {
        s->order++;
        if (s->order >= s->np) {
            s->order = 0;
            s->hour++;
            if (s->hour >= s->hours) {
                s->phase = RAID_PH_OVER;
                return;
            }
        }
        s->cur = (uint8_t)((s->first + s->order) % s->np);
        if (!s->pl[s->cur].out) break;
    }
    s->phase = RAID_PH_DIAMOND;
}

/* Ends the current player's turn: the beast moves (and may attack), then the next player. */
static void end_turn(raid_state *s) {
    if (s->beast >= 0) {
        s->phase = RAID_PH_BEAST_ATTACK;
        return;
    }
    next_player(s);
}

/* Sets the party of player p on its way back home from settlement or place `from` (inches). */
static void go_home(raid_state *s, int p, int inches) {
    raid_player *pl = &s->pl[p];
    if (pl->party == 0) {
        pl->target = RAID_TGT_NONE;
        return;
    }
    pl->target = RAID_TGT_HOME;
    pl->dist = (int16_t)inches;
}

/* Starts the volleys of a raid on settlement q: defending archers (two shots, standing), then
 * the raiders' archers (one shot, they moved). */
static void start_raid_combat(raid_state *s, int q) {
    s->fd = (uint8_t)q;
    s->volleys = 0;
    s->volley_side = 0;
    if (s->pl[q].kit == 3 && s->pl[q].home) {
        s->volleys = s->pl[q].home;
        s->volley_side = 1;
    } else if (s->pl[s->cur].kit == 3 && defenders(s, q)) {
        s->volleys = s->pl[s->cur].party;
        s->volley_side = 0;
    }
    s->phase = s->volleys ? RAID_PH_VOLLEY : RAID_PH_FIGHT;
}

/* Moves the current player's party by the Clubs value and handles the arrival. */
static void move_party(raid_state *s) {
    raid_player *pl = &s->pl[s->cur];
    if (pl->party == 0 || pl->target == RAID_TGT_NONE) {
        end_turn(s);
        return;
    }
    pl->dist -= s->club;
    if (pl->dist > 0) {
        end_turn(s);
        return;
    }
    pl->dist = 0;
    s->long_move = s->club > 6;
    int t = pl->target;
    if (t == RAID_TGT_HOME) {
        pl->home += pl->party;
        pl->party = 0;
        pl->target = RAID_TGT_NONE;
        end_turn(s);
    } else if (t == RAID_TGT_TOMB) {
        if (s->tomb_looted) {
            go_home(s, s->cur, s->opt_tomb);
            end_turn(s);
        } else {
            s->phase = RAID_PH_TOMB;
        }
    } else if (t == RAID_TGT_BEAST) {
        if (s->beast < 0) {
            go_home(s, s->cur, s->opt_spacing);
            end_turn(s);
        } else {
            s->phase = RAID_PH_HUNT;
        }
    } else if (s->pl[t].out || defenders(s, t) == 0) {
        go_home(s, s->cur, distance(s, s->cur, t));
        end_turn(s);
    } else {
        start_raid_combat(s, t);
    }
}

/* Player a has killed every defender of q: q is controlled, its villagers who can be paid and
 * its herd pass to a, and q's own warriors desert. */
static void capture(raid_state *s, int a, int q) {
    raid_player *A = &s->pl[a], *Q = &s->pl[q];
    raid_herd h;
    for (int k = 0; k < RAID_ANIMAL_NB; k++) {
        int n = A->herd[k] + Q->herd[k];
        A->herd[k] = (uint8_t)(n > 255 ? 255 : n);
        Q->herd[k] = 0;
        h.n[k] = A->herd[k];
    }
    /* keep (paying a coin each) only the villagers the bigger herd needs */
    int need = raid_herd_villagers(&h) - A->villagers;
    int keep = Q->villagers < need ? Q->villagers : need;
    if (keep > A->coins) keep = A->coins;
    if (keep < 0) keep = 0;
    A->coins -= (int16_t)keep;
    A->villagers += (uint8_t)keep;
    Q->villagers = 0;
    Q->home = Q->party = 0;
    Q->target = RAID_TGT_NONE;
    Q->out = 1;
    if (s->beast_at == q) s->beast_at = (int8_t)a;
    settle(s, a);
}

/* Ends a raid's fighting: looting if q fell, then the party heads home. */
static void end_raid(raid_state *s) {
    int a = s->cur, q = s->fd;
    if (s->pl[a].party && defenders(s, q) == 0) {
        capture(s, a, q);
        if (!s->pl[q].looted) {
            s->pl[q].looted = 1;
            s->phase = RAID_PH_LOOT;
            return;
        }
    }
    go_home(s, a, distance(s, a, q));
    end_turn(s);
}

/* Applies one melee result of the raid in progress. */
static void apply_fight(raid_state *s, int outcome) {
    raid_player *A = &s->pl[s->cur], *Q = &s->pl[s->fd];
    const day_odds *o = get_odds(s->opt_berserk);
    int dk = defender_kit(s, s->fd);
    if (outcome == FIGHT_A || outcome == FIGHT_BOTH) { /* the defender falls */
        if (outcome == FIGHT_A) A->captured += (int16_t)raid_kit_weapon_value(&o->kit[dk]);
        if (Q->home)
            Q->home--;
        else if (Q->son) {
            Q->son = 0;
            A->bonus += RAID_KILL_SON;
        } else {
            Q->leader = 0;
            A->bonus += RAID_KILL_LEADER;
        }
    }
    if (outcome == FIGHT_D || outcome == FIGHT_BOTH) {
        if (outcome == FIGHT_D) Q->captured += (int16_t)raid_kit_weapon_value(&o->kit[A->kit]);
        A->party--;
    }
    s->long_move = 0; /* only the first fight follows the long move */
    if (A->party == 0 || defenders(s, s->fd) == 0) end_raid(s);
}

/* Sets up a new game. */
int raid_day_init(void *vst, int players, const char *options, char *err, size_t errlen) {
    static const char *const known[] = {"season", "spacing", "tomb", "near",
                                        "leave",  "berserk", NULL};
    raid_state *s = vst;
    memset(s, 0, sizeof *s);
    if (players < 3 || players > RAID_MAX_PLAYERS) {
        snprintf(err, errlen, "Viking Raid takes 3 to %d players, not %d", RAID_MAX_PLAYERS,
                 players);
        return -1;
    }
    if (game_check_options(options, known, err, errlen)) return -1;
    int season = 0, spacing = 24, tomb = 18, near = 33, leave = 10, berserk = 0;
    if (game_option_int(options, "season", 0, 2, &season, err, errlen) ||
        game_option_int(options, "spacing", 1, 120, &spacing, err, errlen) ||
        game_option_int(options, "tomb", 1, 120, &tomb, err, errlen) ||
        game_option_int(options, "near", 0, 100, &near, err, errlen) ||
        game_option_int(options, "leave", 0, 100, &leave, err, errlen) ||
        game_option_int(options, "berserk", 0, 1, &berserk, err, errlen))
        return -1;
    s->np = (uint8_t)players;
    s->opt_season = (uint8_t)season;
    s->opt_spacing = (int16_t)spacing;
    s->opt_tomb = (int16_t)tomb;
    s->opt_near = (int16_t)near;
    s->opt_leave = (int16_t)leave;
    s->opt_berserk = (uint8_t)berserk;
    s->beast = s->beast_at = -1;
    for (int p = 0; p < players; p++) {
        s->pl[p].coins = RAID_START_COINS;
        s->pl[p].leader = s->pl[p].son = 1;
        s->pl[p].target = RAID_TGT_NONE;
    }
    if (season) {
        s->hours = season == 1 ? 10 : 12;
        s->phase = RAID_PH_FIRST;
    } else {
        s->phase = RAID_PH_SEASON;
    }
    get_odds(berserk);
    return 0;
}

/* Returns the kind of node. */
static int raid_node(const void *vst) {
    const raid_state *s = vst;
    switch (s->phase) {
    case RAID_PH_OVER: return GAME_NODE_TERMINAL;
    case RAID_PH_BUY:
    case RAID_PH_PLAGUE:
    case RAID_PH_BEAST_PLACE:
    case RAID_PH_ACTION: return GAME_NODE_DECISION;
    default: return GAME_NODE_CHANCE;
    }
}

/* Returns the player to act. */
static int raid_to_move(const void *vst) {
    const raid_state *s = vst;
    return s->cur;
}

/* Returns the cost of one more warrior bought during the day by player p (with his food animal
 * and, when the herd needs it, a villager), or -1. */
static int buy_one_cost(const raid_state *s, int p) {
    const raid_player *pl = &s->pl[p];
    const day_odds *o = get_odds(s->opt_berserk);
    raid_herd h;
    for (int a = 0; a < RAID_ANIMAL_NB; a++) h.n[a] = pl->herd[a];
    int cost = RAID_UPKEEP + o->cost[pl->kit] + 1; /* loyalty + food, kit, a duck */
    if (raid_herd_count(&h) + 1 > RAID_TEND * pl->villagers) cost += RAID_UPKEEP + 1;
    return cost;
}

static int raid_chance(const void *vst, int *out, double *p);

/* Writes the legal actions of the player to act. */
static int raid_legal(const void *vst, int player, int *acts) {
    const raid_state *s = vst;
    int n = 0;
    (void)player;
    const raid_player *pl = &s->pl[s->cur];
    switch (s->phase) {
    case RAID_PH_BUY:
        for (int k = 0; k < RAID_DAY_KITS; k++)
            for (int w = 0; w <= RAID_BUY_MAX_N; w++) {
                int c = raid_day_buy_cost(k, w);
                if (c < 0 || c > pl->coins) break;
                if (w == 0 && k > 0) continue; /* no warriors: the kit does not matter */
                acts[n++] = k * 32 + w;
            }
        if (n == 0) acts[n++] = 0; /* too poor even for a villager: buy nothing */
        return n;
    case RAID_PH_PLAGUE:
    case RAID_PH_BEAST_PLACE:
        for (int q = 0; q < s->np; q++)
            if (q != s->cur && !s->pl[q].out) acts[n++] = q;
        if (n == 0) acts[n++] = s->cur;
        return n;
    case RAID_PH_ACTION:
        acts[n++] = RAID_ACT_WAIT;
        if (pl->party == 0 && pl->home > 0) {
            for (int q = 0; q < s->np; q++)
                if (q != s->cur && !s->pl[q].out) acts[n++] = RAID_ACT_RAID + q;
            if (!s->tomb_looted) acts[n++] = RAID_ACT_TOMB;
            if (s->beast >= 0) acts[n++] = RAID_ACT_HUNT;
        }
        if (pl->party > 0 && pl->target != RAID_TGT_HOME) acts[n++] = RAID_ACT_RECALL;
        if (buy_one_cost(s, s->cur) <= pl->coins && pl->home + pl->party < 200)
            acts[n++] = RAID_ACT_BUY;
        return n;
    default: {
        double p[GAME_MAX_ACTIONS];
        return raid_chance(vst, acts, p);
    }
    }
}

/* The distribution of the sum of two cards 0..13, in 196ths. */
static int two_cards(int sum) {
    if (sum < 0 || sum > 26) return 0;
    return sum <= 13 ? sum + 1 : 27 - sum;
}

/* Enumerates the chance outcomes and their probabilities. */
static int raid_chance(const void *vst, int *out, double *p) {
    const raid_state *s = vst;
    const day_odds *o = get_odds(s->opt_berserk);
    int n = 0;
    switch (s->phase) {
    case RAID_PH_SEASON:
        out[0] = 10, p[0] = 4.0 / 6;
        out[1] = 12, p[1] = 2.0 / 6;
        return 2;
    case RAID_PH_FIRST:
        for (int i = 0; i < s->np; i++) out[n] = i, p[n++] = 1.0 / s->np;
        return n;
    case RAID_PH_WEALTH:
    case RAID_PH_LOOT:
        for (int v = 0; v <= 26; v++) out[n] = v, p[n++] = two_cards(v) / 196.0;
        return n;
    case RAID_PH_DIAMOND:
    case RAID_PH_CLUB:
        for (int v = 0; v < RAID_CARDS; v++) out[n] = v, p[n++] = 1.0 / RAID_CARDS;
        return n;
    case RAID_PH_PLAGUE_ROLL:
        for (int v = 1; v <= 10; v++) out[n] = v, p[n++] = 0.1;
        return n;
    case RAID_PH_BEAST_KIND:
        for (int b = 0; b < RAID_BEAST_NB; b++)
            out[n] = b, p[n++] = raid_beast_faces((raid_beast)b) / 6.0;
        return n;
    case RAID_PH_VOLLEY: {
        int target = s->volley_side ? s->pl[s->cur].kit : defender_kit(s, s->fd);
        double k = o->volley[target][s->volley_side ? 2 : 1];
        out[0] = 1, p[0] = k;
        out[1] = 0, p[1] = 1 - k;
        return 2;
    }
    case RAID_PH_FIGHT: {
        const double *f = o->fight[s->pl[s->cur].kit][defender_kit(s, s->fd)][s->long_move];
        for (int i = 0; i < 3; i++) out[n] = i, p[n++] = f[i];
        return n;
    }
    case RAID_PH_TOMB:
        out[0] = 1, p[0] = o->tomb[s->pl[s->cur].kit];
        out[1] = 0, p[1] = 1 - p[0];
        return 2;
    case RAID_PH_TOMB_COINS: { /* 5D6 by convolution */
        double d[31] = {0}, e[31];
        d[0] = 1;
        for (int k = 0; k < 5; k++) {
            memset(e, 0, sizeof e);
            for (int v = 0; v <= 30; v++)
                if (d[v] > 0)
                    for (int f = 1; f <= 6 && v + f <= 30; f++) e[v + f] += d[v] / 6;
            memcpy(d, e, sizeof d);
        }
        for (int v = 5; v <= 30; v++) out[n] = v, p[n++] = d[v];
        return n;
    }
    case RAID_PH_HUNT:
        out[0] = 1, p[0] = o->hunt[s->pl[s->cur].kit][s->beast];
        out[1] = 0, p[1] = 1 - p[0];
        return 2;
    case RAID_PH_BEAST_ATTACK: {
        double leave = s->opt_leave / 100.0, near = (1 - leave) * s->opt_near / 100.0;
        double kill = near * o->beast_kill[s->beast];
        out[0] = 0, p[0] = 1 - leave - kill;
        out[1] = 1, p[1] = kill;
        out[2] = 2, p[2] = leave;
        return 3;
    }
    default: return 0;
    }
}

/* Kills the beast's victim at settlement q: a warrior at home, else a villager, son, leader. */
static void beast_victim(raid_state *s, int q) {
    raid_player *pl = &s->pl[q];
    if (pl->home)
        pl->home--;
    else if (pl->villagers)
        pl->villagers--;
    else if (pl->son)
        pl->son = 0;
    else if (pl->leader)
        pl->leader = 0;
    if (!pl->leader && !pl->son && !pl->out) { /* nobody left to lead: the settlement is lost */
        pl->out = 1;
        pl->home = pl->party = 0;
        pl->target = RAID_TGT_NONE;
    }
    settle(s, q);
}

/* Applies the starting purchase of player p. */
static void apply_buy(raid_state *s, int p, int action) {
    raid_player *pl = &s->pl[p];
    int kit = action / 32, w = action % 32;
    int cost = raid_day_buy_cost(kit, w);
    if (cost < 0 || cost > pl->coins) { /* too poor: keep the coins, nobody to feed */
        pl->kit = 0;
        return;
    }
    int v;
    raid_feed_cost(w, 1, &v);
    raid_herd h;
    raid_herd_for(w + v, RAID_TEND * v, v, w, &h);
    pl->coins -= (int16_t)cost;
    pl->kit = (uint8_t)kit;
    pl->home = (uint8_t)w;
    pl->villagers = (uint8_t)v;
    for (int a = 0; a < RAID_ANIMAL_NB; a++) pl->herd[a] = (uint8_t)h.n[a];
}

/* Applies an ACTION decision of the current player. */
static void apply_action(raid_state *s, int a) {
    raid_player *pl = &s->pl[s->cur];
    if (a >= RAID_ACT_RAID && a < RAID_ACT_RAID + RAID_MAX_PLAYERS) {
        int q = a - RAID_ACT_RAID;
        pl->party = pl->home;
        pl->home = 0;
        pl->target = (int8_t)q;
        pl->dist = (int16_t)distance(s, s->cur, q);
    } else if (a == RAID_ACT_TOMB) {
        pl->party = 1;
        pl->home--;
        pl->target = RAID_TGT_TOMB;
        pl->dist = s->opt_tomb;
    } else if (a == RAID_ACT_HUNT) {
        pl->party = pl->home;
        pl->home = 0;
        pl->target = RAID_TGT_BEAST;
        pl->dist = (int16_t)((s->beast_at == s->cur ? 0 : distance(s, s->cur, s->beast_at)) + 10);
    } else if (a == RAID_ACT_RECALL) {
        int from = pl->target >= 0 ? distance(s, s->cur, pl->target) : s->opt_tomb;
        go_home(s, s->cur, from - pl->dist > 0 ? from - pl->dist : 1);
    } else if (a == RAID_ACT_BUY) {
        int cost = buy_one_cost(s, s->cur);
        int with_villager = cost > RAID_UPKEEP + get_odds(s->opt_berserk)->cost[pl->kit] + 1;
        pl->coins -= (int16_t)cost;
        pl->home++;
        pl->herd[RAID_DUCK] += (uint8_t)(1 + with_villager); /* one coin of food each */
        pl->villagers += (uint8_t)with_villager;
        settle(s, s->cur);
    }
    move_party(s);
}

/* Applies a decision or a chance outcome. */
static void raid_apply(void *vst, int a) {
    raid_state *s = vst;
    raid_player *pl = &s->pl[s->cur];
    switch (s->phase) {
    case RAID_PH_SEASON:
        s->hours = (uint8_t)a;
        s->phase = RAID_PH_FIRST;
        break;
    case RAID_PH_FIRST:
        s->first = (uint8_t)a;
        s->cur = (uint8_t)a;
        s->order = 0;
        s->phase = RAID_PH_WEALTH;
        break;
    case RAID_PH_WEALTH:
        pl->coins += (int16_t)a;
        s->phase = RAID_PH_BUY;
        break;
    case RAID_PH_BUY:
        apply_buy(s, s->cur, a);
        s->order++;
        if (s->order >= s->np) {
            s->order = 0;
            s->hour = 0;
            s->cur = s->first;
            s->phase = RAID_PH_DIAMOND;
        } else {
            s->cur = (uint8_t)((s->first + s->order) % s->np);
            s->phase = RAID_PH_WEALTH;
        }
        break;
    case RAID_PH_DIAMOND:
        if (a == 0)
            s->phase = RAID_PH_PLAGUE;
        else {
            pl->coins += (int16_t)a;
            s->phase = RAID_PH_CLUB;
        }
        break;
    case RAID_PH_PLAGUE:
        s->fd = (uint8_t)a;
        s->phase = RAID_PH_PLAGUE_ROLL;
        break;
    case RAID_PH_PLAGUE_ROLL:
        s->pl[s->fd].herd[raid_plague_animal(a)] = 0;
        settle(s, s->fd);
        s->phase = RAID_PH_CLUB;
        break;
    case RAID_PH_CLUB:
        s->club = (uint8_t)a;
        s->phase = a == 0 && s->beast < 0 ? RAID_PH_BEAST_KIND : RAID_PH_ACTION;
        break;
    case RAID_PH_BEAST_KIND:
        s->beast = (int8_t)a;
        s->phase = RAID_PH_BEAST_PLACE;
        break;
    case RAID_PH_BEAST_PLACE:
        s->beast_at = (int8_t)a;
        s->phase = RAID_PH_ACTION;
        break;
    case RAID_PH_ACTION: apply_action(s, a); break;
    case RAID_PH_VOLLEY:
        if (a) { /* a man falls to an arrow */
            if (s->volley_side) {
                if (pl->party) pl->party--;
            } else {
                int long_move = s->long_move; /* an arrow is not the first melee */
                apply_fight(s, FIGHT_A);
                if (s->phase != RAID_PH_VOLLEY) return; /* the raid is over */
                s->long_move = (uint8_t)long_move;
            }
        }
        if (--s->volleys == 0 || pl->party == 0 || defenders(s, s->fd) == 0) {
            if (s->volley_side && pl->party && pl->kit == 3 && defenders(s, s->fd)) {
                s->volley_side = 0; /* now the raiders' archers */
                s->volleys = pl->party;
            } else if (pl->party == 0 || defenders(s, s->fd) == 0) {
                end_raid(s);
            } else {
                s->phase = RAID_PH_FIGHT;
            }
        }
        break;
    case RAID_PH_FIGHT: apply_fight(s, a); break;
    case RAID_PH_LOOT:
        pl->coins += (int16_t)a;
        go_home(s, s->cur, distance(s, s->cur, s->fd));
        end_turn(s);
        break;
    case RAID_PH_TOMB:
        if (a) {
            s->tomb_looted = 1;
            s->phase = RAID_PH_TOMB_COINS;
        } else {
            pl->party = 0;
            pl->target = RAID_TGT_NONE;
            settle(s, s->cur);
            end_turn(s);
        }
        break;
    case RAID_PH_TOMB_COINS:
        pl->coins += (int16_t)a;
        go_home(s, s->cur, s->opt_tomb);
        end_turn(s);
        break;
    case RAID_PH_HUNT:
        if (a) {
            s->beast = s->beast_at = -1;
            go_home(s, s->cur, s->opt_spacing);
            end_turn(s);
        } else {
            pl->party--;
            if (pl->party == 0) {
                pl->target = RAID_TGT_NONE;
                settle(s, s->cur);
                end_turn(s);
            }
        }
        break;
    case RAID_PH_BEAST_ATTACK:
        if (a == 1) beast_victim(s, s->beast_at);
        if (a == 2) s->beast = s->beast_at = -1;
        next_player(s);
        break;
    default: break;
    }
}

/* Writes each player's share of the win: the largest war chest wins, ties share. */
static void raid_result(const void *vst, double *share) {
    const raid_state *s = vst;
    int best = -(1 << 30), nb = 0;
    int chest[RAID_MAX_PLAYERS];
    for (int p = 0; p < s->np; p++) {
        chest[p] = raid_day_chest(s, p);
        if (chest[p] > best) best = chest[p], nb = 0;
        if (chest[p] == best) nb++;
    }
    for (int p = 0; p < s->np; p++) share[p] = chest[p] == best ? 1.0 / nb : 0;
}

/* Writes each player's war chest. */
static void raid_points(const void *vst, double *pts) {
    const raid_state *s = vst;
    for (int p = 0; p < s->np; p++) pts[p] = raid_day_chest(s, p);
}

/* Returns the hours played. */
static int raid_length(const void *vst) {
    return ((const raid_state *)vst)->hour;
}

/* Returns the number of players. */
static int raid_players(const void *vst) {
    return ((const raid_state *)vst)->np;
}

static const char *const phase_name[] = {
    "season", "first",      "wealth",      "buy",          "diamond", "plague", "plague-roll",
    "club",   "beast-kind", "beast-place", "action",       "volley",  "fight",  "loot",
    "tomb",   "tomb-coins", "hunt",        "beast-attack", "over",
};

/* Draws the state for people. */
static int raid_render(const void *vst, char *buf, size_t n) {
    const raid_state *s = vst;
    size_t len = 0;
#define OUT(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, __VA_ARGS__);          \
        if (w_ > 0) len += (size_t)w_;                                                             \
    } while (0)
    OUT("Viking Raid: hour %d of %d, player %d to play, phase %s", s->hour + 1, s->hours, s->cur,
        phase_name[s->phase]);
    if (s->beast >= 0)
        OUT(", a %s prowls near settlement %d", raid_beast_name((raid_beast)s->beast), s->beast_at);
    OUT("%s\n", s->tomb_looted ? ", the tomb is empty" : "");
    for (int p = 0; p < s->np; p++) {
        const raid_player *pl = &s->pl[p];
        raid_herd h;
        for (int a = 0; a < RAID_ANIMAL_NB; a++) h.n[a] = pl->herd[a];
        char herd[96];
        raid_herd_format(&h, herd, sizeof herd);
        OUT("  %d: chest %3d coins %3d  %s%s warriors %d home", p, raid_day_chest(s, p), pl->coins,
            pl->leader ? "L" : "-", pl->son ? "S" : "-", pl->home);
        if (pl->party) {
            if (pl->target >= 0)
                OUT(", %d raiding %d (%d\" to go)", pl->party, pl->target, pl->dist);
            else
                OUT(", %d %s (%d\" to go)", pl->party,
                    pl->target == RAID_TGT_HOME   ? "going home"
                    : pl->target == RAID_TGT_TOMB ? "to the tomb"
                                                  : "hunting",
                    pl->dist);
        }
        OUT(" [%s], villagers %d, herd %s%s\n", raid_day_kit[pl->kit], pl->villagers, herd,
            pl->out ? ", OUT" : "");
    }
#undef OUT
    return (int)len;
}

/* Writes the state as hex of its bytes (read back by raid_parse). */
static int raid_format(const void *vst, char *buf, size_t n) {
    const unsigned char *b = vst;
    size_t len = 0;
    int w = snprintf(buf, n, "raid:");
    len = w > 0 ? (size_t)w : 0;
    for (size_t i = 0; i < sizeof(raid_state); i++) {
        w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%02x", b[i]);
        if (w > 0) len += (size_t)w;
    }
    return (int)len;
}

/* Reads a state written by raid_format, checking what it can. */
static int raid_parse(void *vst, const char *text, char *err, size_t errlen) {
    raid_state s;
    if (strncmp(text, "raid:", 5) != 0 || strlen(text + 5) != 2 * sizeof s) {
        snprintf(err, errlen, "a raid STATE is \"raid:\" and %zu hex digits", 2 * sizeof s);
        return -1;
    }
    unsigned char *b = (unsigned char *)&s;
    for (size_t i = 0; i < sizeof s; i++) {
        unsigned v;
        if (sscanf(text + 5 + 2 * i, "%2x", &v) != 1) {
            snprintf(err, errlen, "bad hex digit at offset %zu", 5 + 2 * i);
            return -1;
        }
        b[i] = (unsigned char)v;
    }
    if (s.np < 3 || s.np > RAID_MAX_PLAYERS || s.phase > RAID_PH_OVER || s.cur >= s.np) {
        snprintf(err, errlen, "the STATE is not a valid raid state");
        return -1;
    }
    *(raid_state *)vst = s;
    return 0;
}

/* Names an action. */
static int raid_action_text(const void *vst, int player, int a, char *buf, size_t n) {
    const raid_state *s = vst;
    (void)player;
    switch (s->phase) {
    case RAID_PH_BUY:
        return snprintf(buf, n, "buy %d warriors with %s (%d coins)", a % 32, raid_day_kit[a / 32],
                        raid_day_buy_cost(a / 32, a % 32));
    case RAID_PH_PLAGUE: return snprintf(buf, n, "send the plague to settlement %d", a);
    case RAID_PH_BEAST_PLACE: return snprintf(buf, n, "place the beast near settlement %d", a);
    case RAID_PH_ACTION:
        if (a == RAID_ACT_WAIT) return snprintf(buf, n, "wait");
        if (a < RAID_ACT_TOMB) return snprintf(buf, n, "raid settlement %d", a - RAID_ACT_RAID);
        if (a == RAID_ACT_TOMB) return snprintf(buf, n, "send a warrior into the tomb");
        if (a == RAID_ACT_HUNT) return snprintf(buf, n, "hunt the wild beast");
        if (a == RAID_ACT_RECALL) return snprintf(buf, n, "recall the war party");
        return snprintf(buf, n, "buy a warrior (%d coins)", buy_one_cost(s, s->cur));
    default: return snprintf(buf, n, "%s %d", phase_name[s->phase], a);
    }
}

/* Returns the strength of settlement q against a raid: its defenders. */
static int defence_of(const raid_state *s, int q) {
    return defenders(s, q) + (s->pl[q].party && s->pl[q].target == RAID_TGT_HOME ? 1 : 0);
}

/* A hand-written player: buys many cheap two-weapon warriors, raids the weakest settlement when
 * clearly stronger, tries the tomb, strikes the richest rival with plague and beasts. */
static int raid_heuristic(const void *vst, int player, const int *acts, int n, game_rng *rng) {
    const raid_state *s = vst;
    const raid_player *me = &s->pl[s->cur];
    (void)player;
    (void)rng;
    int best = 0;
    switch (s->phase) {
    case RAID_PH_BUY: /* most axe-and-dagger men that leave 4 coins */
        for (int i = 0; i < n; i++)
            if (acts[i] / 32 == 0 && raid_day_buy_cost(0, acts[i] % 32) <= me->coins - 4) best = i;
        return best;
    case RAID_PH_PLAGUE:
    case RAID_PH_BEAST_PLACE: {
        int top = -1;
        for (int i = 0; i < n; i++) {
            int c = raid_day_chest(s, acts[i]);
            if (c > top) top = c, best = i;
        }
        return best;
    }
    case RAID_PH_ACTION: {
        int weakest = -1, wdef = 1 << 20, tomb = -1, buy = -1;
        for (int i = 0; i < n; i++) {
            int a = acts[i];
            if (a >= RAID_ACT_RAID && a < RAID_ACT_TOMB) {
                int d = defence_of(s, a - RAID_ACT_RAID);
                if (d < wdef) wdef = d, weakest = i;
            }
            if (a == RAID_ACT_TOMB) tomb = i;
            if (a == RAID_ACT_BUY) buy = i;
        }
        int hours_left = s->hours - s->hour;
        if (weakest >= 0 && me->home >= wdef + 2 && hours_left >= 3) return weakest;
        if (tomb >= 0 && me->home >= 2 && hours_left >= 3) return tomb;
        if (buy >= 0 && me->coins >= 12) return buy;
        return 0;
    }
    default: return 0;
    }
}

const game_def raid_game = {
    .name = "raid",
    .title = "Viking Raid (abstract raid day)",
    .min_players = 3,
    .max_players = RAID_MAX_PLAYERS,
    .default_players = 4,
    .state_size = sizeof(raid_state),
    .options_help =
        "  season=0|1|2   0: D6 (1-4 spring/autumn, 10 hours; 5-6 summer, 12), 1: 10, 2: 12\n"
        "  spacing=N      inches between neighbouring settlements (default 24)\n"
        "  tomb=N         inches from a settlement to the tomb (default 18)\n"
        "  near=P         percent chance a wild beast comes within 3\" of a figure "
        "after a move (default 33)\n"
        "  leave=P        percent chance a beast wanders off the table after a move "
        "(default 10)\n"
        "  berserk=0|1    the optional berserker rule in melee (default 0)\n",
    .init = raid_day_init,
    .node = raid_node,
    .to_move = raid_to_move,
    .legal = raid_legal,
    .chance = raid_chance,
    .sample_chance = NULL,
    .apply = raid_apply,
    .apply_joint = NULL,
    .determinize = NULL,
    .result = raid_result,
    .points = raid_points,
    .length = raid_length,
    .players = raid_players,
    .render = raid_render,
    .format = raid_format,
    .parse = raid_parse,
    .action_text = raid_action_text,
    .heuristic = raid_heuristic,
    .playout = NULL,
};
