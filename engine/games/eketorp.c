/* Eketorp: the rules of a week (see eketorp.h and docs/eketorp.md). */
#include "engine/games/eketorp.h"

#include <stdio.h>
#include <string.h>

#include "engine/games/bytemask.h"
#include "engine/games/eketorp_text.h"

/* The seat i places clockwise after seat `base` (both below np), without a division. */
static inline int ekt_seat(const ekt_state *s, int base, int i) {
    int p = base + i;
    return p >= s->np ? p - s->np : p;
}

/* Cards in a count array (index 0, which means nothing, is always 0). */
static inline int ekt_count(const uint8_t *v) {
    /* add the seven bytes in 16-bit lanes, which cannot overflow */
    uint64_t x = byte_row(v, EKT_VALUES), lanes = 0x00ff00ff00ff00ffULL;
    x = (x & lanes) + (x >> 8 & lanes);
    return (int)((x * 0x0001000100010001ULL) >> 48);
}

/* Returns 1 when a count array holds any card. */
static inline int ekt_any(const uint8_t *v) {
    return byte_row(v, EKT_VALUES) != 0;
}

/* Bit k set: place k of player p is below the third level. */
static inline uint32_t ekt_open_places(const ekt_state *s, int p) {
    /* a height of 3 (the most) plus 125 reaches bit 7 of its byte */
    uint64_t full =
        ((byte_row(s->height[p], EKT_PLACES) + 0x7d7d7d7d7d7d7d7dULL) >> 7) & 0x0101010101010101ULL;
    return ~byte_gather(full) & ((1u << EKT_PLACES) - 1);
}

/* Hospital space for a loser when the cards differ by diff. */
int ekt_hospital_space(int diff, int protected_defender) {
    const ekt_data *d = ekt_data_current();
    int space = EKT_HOSPITAL - 2;
    for (int i = 0; i < EKT_HOSPITAL - 1; i++)
        if (diff >= d->hospital_min[i]) {
            space = i;
            break;
        }
    if (protected_defender && space < EKT_HOSPITAL - 1) space++;
    return space;
}

/* Points of player p now. */
int ekt_score(const ekt_state *s, int p) {
    int pts = s->amulets[p] + (s->completed[p] ? 5 : 0);
    for (int k = 0; k < EKT_PLACES; k++)
        for (int l = 0; l < s->height[p][k]; l++) pts += s->place[p][k][l];
    for (int m = 1; m < EKT_MATERIALS; m++) pts += m * s->extra[p][m];
    return pts;
}

/* Moves the pile of p into the hand when the hand is empty (all of it is then known). */
static void ekt_pick_up(ekt_state *s, int p) {
    if (ekt_any(s->hand[p])) return;
    for (int v = 1; v < EKT_VALUES; v++) {
        s->hand[p][v] = s->pile[p][v];
        s->known[p][v] = s->pile[p][v];
        s->pile[p][v] = 0;
    }
}

/* Starts drawing `n` cards for p; afterwards the game goes on in phase `then`. */
static void ekt_start_draw(ekt_state *s, int p, int n, int then) {
    s->draw_player = (uint8_t)p;
    s->draw_left = (uint8_t)n;
    s->draw_then = (uint8_t)then;
    s->phase = n > 0 ? EKT_DRAW : (uint8_t)then;
}

/* Refills the deck from the cards put aside when it is empty. */
static void ekt_refill_deck(ekt_state *s) {
    if (ekt_any(s->deck)) return;
    for (int v = 1; v < EKT_VALUES; v++) {
        s->deck[v] = s->aside[v];
        s->aside[v] = 0;
    }
}

static void ekt_continue(ekt_state *s);

/* ----- weeks: items, orders, fights, building, recovery ----- */

/* Begins the week: the item card comes next. */
static void ekt_begin_week(ekt_state *s) {
    const ekt_data *d = ekt_data_current();
    memset(s->siege_done, 0, sizeof s->siege_done);
    memset(s->plan_field, 0, sizeof s->plan_field);
    memset(s->plan_siege, 0, sizeof s->plan_siege);
    memset(s->planned, 0, sizeof s->planned);
    memset(s->plan_done, 0, sizeof s->plan_done);
    if (__builtin_popcount(s->items_used) >= d->item_count) s->items_used = 0;
    s->phase = EKT_ITEMS;
}

/* Places the tiles of item card k on the fields. */
static void ekt_place_items(ekt_state *s, int k) {
    const ekt_data *d = ekt_data_current();
    s->items_used |= (uint16_t)(1u << k);
    for (int i = 0; i < d->item_len[k]; i++) {
        int f = d->item_field[k][i], m = d->item_material[k][i];
        if (s->supply[m] == 0) continue; /* the box is out of this material */
        if (s->opt_rotten && m <= 2) {
            /* rotten=1: foliage and wood together at most 3; rotten=2: each at most 3 */
            int on = s->opt_rotten == 2 ? s->ftile[f][m] : s->ftile[f][1] + s->ftile[f][2];
            if (on >= 3) continue; /* rotten: the tile stays in the box */
        }
        s->supply[m]--;
        s->ftile[f][m]++;
    }
    s->phase = EKT_PLAN;
}

/* Moves the written orders onto the board. */
static void ekt_execute_orders(ekt_state *s) {
    for (int p = 0; p < s->np; p++) {
        for (int f = 0; f < EKT_FIELDS; f++) {
            s->field[p][f] = s->plan_field[p][f];
            s->home[p] -= s->plan_field[p][f];
        }
        for (int q = 0; q < s->np; q++)
            for (int side = 0; side < EKT_SIDES; side++) {
                s->siege[p][q][side] = s->plan_siege[p][q][side];
                s->home[p] -= s->plan_siege[p][q][side];
            }
    }
    s->chooser = s->start;
    s->phase = EKT_CHOOSE;
    ekt_continue(s);
}

/* Tiles on field f. */
static int ekt_field_tiles(const ekt_state *s, int f) {
    int n = 0;
    for (int m = 1; m < EKT_MATERIALS; m++) n += s->ftile[f][m];
    return n;
}

/*
 * Where the fights of the week can be, as bit masks built from the state: the fields each player
 * has Vikings on, the siege sections each besieges (bit q * 3 + side), the contested fields
 * (more Vikings than tiles, of at least two players) and the sections already fought.
 */
typedef struct ekt_fight_map {
    uint32_t fields[EKT_MAX_PLAYERS];
    uint32_t sections[EKT_MAX_PLAYERS];
    uint32_t contested, done;
} ekt_fight_map;

/* Builds the fight map from the non-zero bytes of the field, siege and siege_done blocks. */
static inline void ekt_fight_map_init(const ekt_state *s, ekt_fight_map *m) {
    enum { ROW = EKT_MAX_PLAYERS * EKT_SIDES, LOW = 64 / ROW * ROW };
    const uint8_t *siege = (const uint8_t *)s->siege;
    uint64_t field = byte_mask64((const uint8_t *)s->field, sizeof s->field);
    /* the siege rows of players 0-2 in one word, of players 3-5 in another */
    uint64_t low = byte_mask64(siege, LOW), high = byte_mask64(siege + LOW, sizeof s->siege - LOW);
    uint32_t once = 0, shared = 0;
    for (int p = 0; p < s->np; p++) {
        m->fields[p] = (uint32_t)(field >> (EKT_FIELDS * p)) & ((1u << EKT_FIELDS) - 1);
        uint64_t rows = p < LOW / ROW ? low >> (ROW * p) : high >> (ROW * p - LOW);
        m->sections[p] = (uint32_t)rows & ((1u << ROW) - 1);
        shared |= once & m->fields[p];
        once |= m->fields[p];
    }
    /* a field of two or more players is contested when it holds more Vikings than tiles */
    m->contested = 0;
    for (uint32_t rest = shared; rest; rest &= rest - 1) {
        int f = __builtin_ctz(rest), crowd = 0;
        for (int p = 0; p < s->np; p++) crowd += s->field[p][f];
        if (crowd > ekt_field_tiles(s, f)) m->contested |= 1u << f;
    }
    m->done = (uint32_t)byte_mask64((const uint8_t *)s->siege_done, sizeof s->siege_done);
}

/* Bit p * 3 + side: sections of p's stronghold that someone besieges. */
static inline uint32_t ekt_besieged(const ekt_state *s, const ekt_fight_map *m) {
    uint32_t any = 0;
    for (int r = 0; r < s->np; r++) any |= m->sections[r];
    return any;
}

/* Returns 1 when player p has a fight to name. */
static inline int ekt_has_fight(const ekt_state *s, const ekt_fight_map *m, int p) {
    if ((m->contested & m->fields[p]) || (m->sections[p] & ~m->done)) return 1;
    if (!s->opt_sally || s->home[p] == 0) return 0;
    return (ekt_besieged(s, m) & ~m->done) >> (3 * p) & 7 ? 1 : 0;
}

/* Lists the fights player p can name now, from the fight map; returns the count. */
static int ekt_fights_in(const ekt_state *s, const ekt_fight_map *m, int p, int *acts) {
    int n = 0;
    for (uint32_t mine = m->contested & m->fields[p]; mine; mine &= mine - 1) {
        int f = __builtin_ctz(mine);
        for (int q = 0; q < s->np; q++)
            if (q != p && (m->fields[q] >> f & 1)) acts[n++] = EKT_FIGHT_FIELD + f * 10 + q;
    }
    for (uint32_t open = m->sections[p] & ~m->done; open; open &= open - 1) {
        int bit = __builtin_ctz(open), q = bit / EKT_SIDES, side = bit % EKT_SIDES;
        uint32_t rivals = 0; /* bit r: r besieges the section too */
        for (int r = 0; r < s->np; r++) rivals |= (m->sections[r] >> bit & 1) << r;
        rivals &= ~(1u << p);
        if (!rivals) acts[n++] = EKT_FIGHT_SIEGE + q * 10 + side;
        for (; rivals; rivals &= rivals - 1)
            acts[n++] = EKT_FIGHT_RIVALS + q * 100 + side * 10 + __builtin_ctz(rivals);
    }
    if (s->opt_sally && s->home[p] > 0)
        for (int side = 0; side < EKT_SIDES; side++) {
            int bit = 3 * p + side;
            if (m->done >> bit & 1) continue;
            for (int r = 0; r < s->np; r++)
                if (r != p && (m->sections[r] >> bit & 1))
                    acts[n++] = EKT_FIGHT_SALLY + side * 10 + r;
        }
    return n;
}

/* Lists the fights player p can name now. */
static int ekt_fights(const ekt_state *s, int p, int *acts) {
    ekt_fight_map m;
    ekt_fight_map_init(s, &m);
    return ekt_fights_in(s, &m, p, acts);
}

/* Gives each Viking on a field one tile (players in turn from the starting player, each taking
 * the most valuable tile left), sends everybody home, and starts the building phase. */
static void ekt_end_fights(ekt_state *s) {
    for (int f = 0; f < EKT_FIELDS; f++) {
        int left[EKT_MAX_PLAYERS], waiting = 0;
        for (int p = 0; p < s->np; p++) waiting += left[p] = s->field[p][f];
        while (waiting > 0 && ekt_field_tiles(s, f) > 0) {
            for (int i = 0; i < s->np; i++) {
                int p = ekt_seat(s, s->start, i), m = EKT_MATERIALS - 1;
                if (!left[p]) continue;
                while (m >= 1 && !s->ftile[f][m]) m--;
                if (m < 1) break;
                left[p]--;
                waiting--;
                s->ftile[f][m]--;
                s->gain[p][m]++;
            }
        }
        for (int p = 0; p < s->np; p++) {
            s->home[p] += s->field[p][f];
            s->field[p][f] = 0;
        }
    }
    for (int p = 0; p < s->np; p++)
        for (int q = 0; q < s->np; q++)
            for (int side = 0; side < EKT_SIDES; side++) {
                s->home[p] += s->siege[p][q][side];
                s->siege[p][q][side] = 0;
            }
    s->phase = EKT_BUILD;
    s->build_player = s->start;
    s->build_count = 0;
    ekt_continue(s);
}

/* The unbuilt tile p builds next (the most valuable), or 0. */
static int ekt_next_gain(const ekt_state *s, int p) {
    uint32_t have = byte_mask_row(s->gain[p], EKT_MATERIALS) & ~1u;
    return 31 - __builtin_clz(have | 1); /* 0 when there is none */
}

/* Finishes the week: healing, the next starting player, the end test. */
static void ekt_end_week(ekt_state *s) {
    for (int p = 0; p < s->np; p++) {
        s->home[p] += s->hosp[p][EKT_HOSPITAL - 1];
        for (int h = EKT_HOSPITAL - 1; h > 0; h--) s->hosp[p][h] = s->hosp[p][h - 1];
        s->hosp[p][0] = 0;
    }
    int done = 0;
    for (int p = 0; p < s->np; p++) done |= s->completed[p];
    s->start = (uint8_t)ekt_seat(s, s->start, 1);
    if (done || s->week >= s->weeks) {
        s->phase = EKT_OVER;
        return;
    }
    s->week++;
    ekt_begin_week(s);
}

/* Passes the choice of a fight to the next player, from the chooser on, who has one (the map
 * describes the state); returns 1, or ends the fights and returns 0 when nobody has one. */
static int ekt_next_chooser(ekt_state *s, const ekt_fight_map *m) {
    for (int i = 0; i < s->np; i++) {
        int p = ekt_seat(s, s->chooser, i);
        if (ekt_has_fight(s, m, p)) {
            s->chooser = (uint8_t)p;
            return 1;
        }
    }
    ekt_end_fights(s);
    return 0;
}

/* Moves the game through steps that need nobody's choice, until a chance, decision or
 * simultaneous node (or the end) is reached. */
static void ekt_continue(ekt_state *s) {
    for (;;) {
        switch (s->phase) {
        case EKT_REDEAL: {
            /* ask the next player without a 4, 5 or 6 */
            while (s->setup_next < s->np) {
                int p = ekt_seat(s, s->start, s->setup_next);
                if (!s->redealt[p] && !s->hand[p][4] && !s->hand[p][5] && !s->hand[p][6]) return;
                s->setup_next++;
            }
            ekt_begin_week(s);
            return;
        }
        case EKT_PLAN: {
            int any = 0;
            for (int p = 0; p < s->np; p++) {
                int writing = !s->plan_done[p] & (s->planned[p] < s->home[p]);
                s->plan_done[p] = (uint8_t)!writing;
                any |= writing;
            }
            if (any) return;
            ekt_execute_orders(s);
            return;
        }
        case EKT_CHOOSE: {
            ekt_fight_map m;
            ekt_fight_map_init(s, &m);
            ekt_next_chooser(s, &m);
            return;
        }
        case EKT_BUILD: {
            while (s->build_count < s->np) {
                int p = s->build_player;
                int m = ekt_next_gain(s, p);
                if (m) {
                    if (ekt_open_places(s, p)) return;
                    s->gain[p][m]--;
                    s->extra[p][m]++;
                    continue;
                }
                s->build_count++;
                s->build_player = (uint8_t)ekt_seat(s, p, 1);
            }
            ekt_end_week(s);
            return;
        }
        default: return;
        }
    }
}

/* Applies the outcome of the fight in s->fight with the played card values; the choice of the
 * next fight is then due (ekt_resolve makes it). */
static void ekt_fight_result(ekt_state *s, int v0, int v1) {
    int a = s->fighter[0], b = s->fighter[1];
    int kind = s->fight / 1000 * 1000, rest = s->fight % 1000;
    /* the cards change hands, face down on the sheets */
    s->hand[a][v0]--;
    if (s->known[a][v0]) s->known[a][v0]--;
    s->hand[b][v1]--;
    if (s->known[b][v1]) s->known[b][v1]--;
    s->pile[b][v0]++;
    s->pile[a][v1]++;
    if (kind == EKT_FIGHT_SIEGE) {
        int q = b, side = rest % 10;
        int empty = s->home[q] == 0;
        int dv = empty ? 0 : v1;
        int diff = v0 > dv ? v0 - dv : dv - v0;
        if (v0 <= dv) s->hosp[a][ekt_hospital_space(diff, 0)]++, s->siege[a][q][side]--;
        if (v0 >= dv && !empty) {
            s->home[q]--;
            s->hosp[q][ekt_hospital_space(diff, 1)]++;
        }
        if (v0 > dv) {
            /* tear down tiles from the top of the section, the most valuable fitting first */
            int budget = diff, best = 0;
            for (;;) {
                int pick = -1, pm = 0;
                for (int k = 2 * side; k < 2 * side + 2; k++) {
                    int h = s->height[q][k];
                    if (!h) continue;
                    int m = s->place[q][k][h - 1];
                    if (m <= budget && m > pm) {
                        pm = m;
                        pick = k;
                    }
                }
                if (pick < 0) break;
                s->height[q][pick]--;
                s->place[q][pick][s->height[q][pick]] = 0;
                budget -= pm;
                if (pm > best) {
                    if (best) s->supply[best]++;
                    best = pm;
                } else {
                    s->supply[pm]++;
                }
            }
            if (best) s->gain[a][best]++;
        }
        s->siege_done[q][side] = 1;
    } else {
        int diff = v0 > v1 ? v0 - v1 : v1 - v0;
        int hs = ekt_hospital_space(diff, 0);
        int lose_a = v0 <= v1, lose_b = v1 <= v0;
        if (kind == EKT_FIGHT_FIELD) {
            int f = rest / 10;
            if (lose_a) s->field[a][f]--, s->hosp[a][hs]++;
            if (lose_b) s->field[b][f]--, s->hosp[b][hs]++;
        } else if (kind == EKT_FIGHT_RIVALS) {
            int q = rest / 100, side = rest / 10 % 10;
            if (lose_a) s->siege[a][q][side]--, s->hosp[a][hs]++;
            if (lose_b) s->siege[b][q][side]--, s->hosp[b][hs]++;
        } else { /* sally: a is the owner, b the besieger */
            int side = rest / 10;
            if (lose_a) s->home[a]--, s->hosp[a][hs]++;
            if (lose_b) s->siege[b][a][side]--, s->hosp[b][hs]++;
        }
    }
    ekt_pick_up(s, a);
    ekt_pick_up(s, b);
    s->chooser = (uint8_t)ekt_seat(s, s->chooser, 1);
    s->phase = EKT_CHOOSE;
}

/* Resolves the fight in s->fight with the played card values and moves on to the next fight. */
static void ekt_resolve(ekt_state *s, int v0, int v1) {
    ekt_fight_result(s, v0, v1);
    ekt_continue(s);
}

/* Returns the opponent in a named fight. */
static int ekt_fight_opponent(const ekt_state *s, int chooser, int fight) {
    int kind = fight / 1000 * 1000, rest = fight % 1000;
    (void)s;
    (void)chooser;
    switch (kind) {
    case EKT_FIGHT_FIELD: return rest % 10;
    case EKT_FIGHT_RIVALS: return rest % 10;
    case EKT_FIGHT_SIEGE: return rest / 10;
    default: return rest % 10;
    }
}

/* The player who decides at the current exchange step. */
static int ekt_exchanger(const ekt_state *s) {
    return s->fighter[s->exch_step];
}

/* Returns 1 when p may exchange his hand for amulets now. */
static int ekt_can_exchange(const ekt_state *s, int p) {
    int n = ekt_count(s->hand[p]);
    return n > 0 && s->amulets[p] >= n;
}

/* Moves to the next exchange step, or to the cards. */
static void ekt_next_exchange(ekt_state *s) {
    while (s->exch_step < 2 && !ekt_can_exchange(s, ekt_exchanger(s))) s->exch_step++;
    s->phase = s->exch_step < 2 ? EKT_EXCHANGE : EKT_CARDS;
}

/* ----- the game_def table ----- */

/* Returns the node kind. */
static int ekt_node(const void *st) {
    switch (((const ekt_state *)st)->phase) {
    case EKT_DRAW:
    case EKT_ITEMS: return GAME_NODE_CHANCE;
    case EKT_PLAN:
    case EKT_CARDS: return GAME_NODE_SIMULTANEOUS;
    case EKT_OVER: return GAME_NODE_TERMINAL;
    default: return GAME_NODE_DECISION;
    }
}

/* Returns the player to act at a decision node. */
static int ekt_to_move(const void *st) {
    const ekt_state *s = st;
    switch (s->phase) {
    case EKT_REDEAL: return ekt_seat(s, s->start, s->setup_next);
    case EKT_CHOOSE: return s->chooser;
    case EKT_EXCHANGE: return ekt_exchanger(s);
    case EKT_BUILD: return s->build_player;
    default: return 0;
    }
}

/* Lists the actions of `player` (or chance outcomes). */
static int ekt_legal(const void *st, int player, int *acts) {
    const ekt_state *s = st;
    int n = 0;
    switch (s->phase) {
    case EKT_DRAW:
        for (int v = 1; v < EKT_VALUES; v++)
            if (s->deck[v]) acts[n++] = v;
        return n;
    case EKT_ITEMS: {
        const ekt_data *d = ekt_data_current();
        for (int k = 0; k < d->item_count; k++)
            if (!(s->items_used >> k & 1)) acts[n++] = k;
        return n;
    }
    case EKT_REDEAL:
    case EKT_EXCHANGE:
        acts[n++] = 0;
        acts[n++] = 1;
        return n;
    case EKT_PLAN:
        if (s->plan_done[player] || s->planned[player] >= s->home[player]) return 0;
        acts[n++] = EKT_PLAN_STOP;
        for (int f = 0; f < EKT_FIELDS; f++) acts[n++] = EKT_PLAN_FIELD + f;
        for (int q = 0; q < s->np; q++)
            if (q != player)
                for (int side = 0; side < EKT_SIDES; side++)
                    acts[n++] = EKT_PLAN_SIEGE + q * 3 + side;
        return n;
    case EKT_CHOOSE: return ekt_fights(s, s->chooser, acts);
    case EKT_CARDS:
        if (player != s->fighter[0] && player != s->fighter[1]) return 0;
        for (uint32_t vals = byte_mask_row(s->hand[player], EKT_VALUES); vals; vals &= vals - 1)
            acts[n++] = __builtin_ctz(vals);
        return n;
    case EKT_BUILD:
        for (uint32_t open = ekt_open_places(s, s->build_player); open; open &= open - 1)
            acts[n++] = __builtin_ctz(open);
        return n;
    default: return 0;
    }
}

/* Enumerates chance outcomes with probabilities. */
static int ekt_chance(const void *st, int *outs, double *probs) {
    const ekt_state *s = st;
    int n = ekt_legal(st, 0, outs);
    double total = s->phase == EKT_DRAW ? ekt_count(s->deck) : n;
    for (int i = 0; i < n; i++) probs[i] = (s->phase == EKT_DRAW ? s->deck[outs[i]] : 1) / total;
    return n;
}

/* Draws a chance outcome. */
static int ekt_sample(const void *st, game_rng *rng) {
    const ekt_state *s = st;
    if (s->phase == EKT_DRAW) {
        int r = (int)rng_below(rng, (uint32_t)ekt_count(s->deck));
        for (int v = 1; v < EKT_VALUES; v++) {
            if (r < s->deck[v]) return v;
            r -= s->deck[v];
        }
        return EKT_VALUES - 1;
    }
    const ekt_data *d = ekt_data_current();
    int left = d->item_count - __builtin_popcount(s->items_used);
    int r = (int)rng_below(rng, (uint32_t)left);
    for (int k = 0; k < d->item_count; k++)
        if (!(s->items_used >> k & 1) && r-- == 0) return k;
    return 0;
}

/* Applies a decision or a chance outcome. */
static void ekt_apply(void *st, int a) {
    ekt_state *s = st;
    switch (s->phase) {
    case EKT_DRAW: {
        int p = s->draw_player;
        s->deck[a]--;
        s->hand[p][a]++;
        ekt_refill_deck(s);
        if (--s->draw_left > 0) return;
        if (s->draw_then == EKT_DRAW) {
            /* the opening deal: the next player gets four cards */
            if (++s->setup_next < s->np) {
                ekt_start_draw(s, ekt_seat(s, s->start, s->setup_next), 4, EKT_DRAW);
                return;
            }
            s->setup_next = 0;
            s->phase = EKT_REDEAL;
        } else if (s->draw_then == EKT_REDEAL) {
            s->setup_next++;
            s->phase = EKT_REDEAL;
        } else {
            s->exch_step++;
            ekt_next_exchange(s);
            return;
        }
        ekt_continue(s);
        return;
    }
    case EKT_REDEAL: {
        int p = ekt_to_move(s);
        s->redealt[p] = 1;
        if (a == 1) {
            for (int v = 1; v < EKT_VALUES; v++) {
                s->deck[v] += s->hand[p][v];
                s->hand[p][v] = 0;
                s->known[p][v] = 0;
            }
            ekt_start_draw(s, p, 4, EKT_REDEAL);
            return;
        }
        s->setup_next++;
        ekt_continue(s);
        return;
    }
    case EKT_ITEMS:
        ekt_place_items(s, a);
        ekt_continue(s);
        return;
    case EKT_CHOOSE: {
        s->fight = (uint16_t)a;
        s->fighter[0] = s->chooser;
        s->fighter[1] = (uint8_t)ekt_fight_opponent(s, s->chooser, a);
        s->exch_step = 0;
        ekt_next_exchange(s);
        return;
    }
    case EKT_EXCHANGE: {
        int p = ekt_exchanger(s);
        if (a == 1 && ekt_can_exchange(s, p)) {
            int n = ekt_count(s->hand[p]);
            s->amulets[p] = (uint8_t)(s->amulets[p] - n);
            for (int v = 1; v < EKT_VALUES; v++) {
                s->aside[v] += s->hand[p][v];
                s->hand[p][v] = 0;
                s->known[p][v] = 0;
            }
            ekt_refill_deck(s);
            ekt_start_draw(s, p, n, EKT_EXCHANGE);
            return;
        }
        s->exch_step++;
        ekt_next_exchange(s);
        return;
    }
    case EKT_BUILD: {
        int p = s->build_player;
        int m = ekt_next_gain(s, p);
        s->gain[p][m]--;
        s->place[p][a][s->height[p][a]++] = (uint8_t)m;
        if (!ekt_open_places(s, p)) s->completed[p] = 1;
        ekt_continue(s);
        return;
    }
    default: return;
    }
}

/* Applies the simultaneous actions (orders or cards). */
static void ekt_apply_joint(void *st, const int *acts) {
    ekt_state *s = st;
    if (s->phase == EKT_CARDS) {
        ekt_resolve(s, acts[s->fighter[0]], acts[s->fighter[1]]);
        return;
    }
    for (int p = 0; p < s->np; p++) {
        int a = acts[p];
        if (a == GAME_NO_ACTION || s->plan_done[p]) continue;
        if (a == EKT_PLAN_STOP) {
            s->plan_done[p] = 1;
            continue;
        }
        /* the order's counter: a field, or a section (q * 3 + side) of p's siege row */
        uint8_t *field = s->plan_field[p], *siege = (uint8_t *)s->plan_siege[p];
        uint8_t *cell =
            a < EKT_PLAN_SIEGE ? field + (a - EKT_PLAN_FIELD) : siege + (a - EKT_PLAN_SIEGE);
        (*cell)++;
        s->planned[p]++;
    }
    ekt_continue(s);
}

/* Resamples what `player` cannot see: other hands' unseen cards, the deck order, and the
 * orders the others are still writing. */
static void ekt_determinize(void *st, int player, game_rng *rng) {
    ekt_state *s = st;
    uint8_t pool[EKT_VALUES];
    int need[EKT_MAX_PLAYERS], total = 0;
    memcpy(pool, s->deck, sizeof pool);
    for (int q = 0; q < s->np; q++) {
        need[q] = 0;
        if (q == player) continue;
        for (int v = 1; v < EKT_VALUES; v++) {
            int hidden = s->hand[q][v] - s->known[q][v];
            pool[v] = (uint8_t)(pool[v] + hidden);
            need[q] += hidden;
            s->hand[q][v] = s->known[q][v];
        }
    }
    for (int v = 1; v < EKT_VALUES; v++) total += pool[v];
    for (int q = 0; q < s->np; q++)
        for (int k = 0; k < need[q]; k++) {
            int r = (int)rng_below(rng, (uint32_t)total);
            for (int v = 1; v < EKT_VALUES; v++) {
                if (r < pool[v]) {
                    pool[v]--;
                    s->hand[q][v]++;
                    break;
                }
                r -= pool[v];
            }
            total--;
        }
    memcpy(s->deck, pool, sizeof pool);
    if (s->phase == EKT_PLAN) {
        int acts[GAME_MAX_ACTIONS];
        for (int q = 0; q < s->np; q++) {
            if (q == player || s->planned[q] == 0) continue;
            int k = s->planned[q];
            memset(s->plan_field[q], 0, sizeof s->plan_field[q]);
            memset(s->plan_siege[q], 0, sizeof s->plan_siege[q]);
            int n = 0;
            for (int f = 0; f < EKT_FIELDS; f++) acts[n++] = EKT_PLAN_FIELD + f;
            for (int o = 0; o < s->np; o++)
                if (o != q)
                    for (int side = 0; side < EKT_SIDES; side++)
                        acts[n++] = EKT_PLAN_SIEGE + o * 3 + side;
            for (int i = 0; i < k; i++) {
                int a = acts[rng_below(rng, (uint32_t)n)];
                if (a < EKT_PLAN_SIEGE)
                    s->plan_field[q][a - EKT_PLAN_FIELD]++;
                else
                    s->plan_siege[q][(a - EKT_PLAN_SIEGE) / 3][(a - EKT_PLAN_SIEGE) % 3]++;
            }
        }
    }
}

/* Writes the win shares: the most points win, ties share. */
static void ekt_result(const void *st, double *share) {
    const ekt_state *s = st;
    int best = -1, k = 0;
    for (int p = 0; p < s->np; p++) {
        int sc = ekt_score(s, p);
        if (sc > best) {
            best = sc;
            k = 1;
        } else if (sc == best) {
            k++;
        }
    }
    for (int p = 0; p < s->np; p++) share[p] = ekt_score(s, p) == best ? 1.0 / k : 0.0;
}

/* Writes each player's points. */
static void ekt_points(const void *st, double *pts) {
    const ekt_state *s = st;
    for (int p = 0; p < s->np; p++) pts[p] = ekt_score(s, p);
}

/* Returns the weeks begun. */
static int ekt_length(const void *st) {
    return ((const ekt_state *)st)->week;
}

/* Returns the number of players. */
static int ekt_players(const void *st) {
    return ((const ekt_state *)st)->np;
}

/* Positions of the set bits of each 4-bit value, lowest first. */
static const uint8_t ekt_nibble_bits[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
    {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
    {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3},
};

/* The position of the k-th set bit of an 8-bit mask m (m has more than k bits set), from the
 * low or the high nibble's table without a branch. */
static inline int ekt_kth_bit(uint32_t m, int k) {
    int low = __builtin_popcount(m & 15), high = k >= low;
    int in_low = ekt_nibble_bits[m & 15][k & 3];
    int in_high = 4 + ekt_nibble_bits[m >> 4 & 15][(k - low) & 3];
    return in_low + (-high & (in_high - in_low));
}

/* A uniformly random element of the set m (bit i = element i, i < 8), or GAME_NO_ACTION when
 * empty. */
static inline int ekt_random_bit(uint32_t m, game_rng *rng) {
    if (!m) return GAME_NO_ACTION;
    return ekt_kth_bit(m, (int)rng_below(rng, (uint32_t)__builtin_popcount(m)));
}

/* Plays uniformly random actions to the end, drawing exactly as game_playout_random would, but
 * picking each action from bit masks or by arithmetic instead of listing them where it can. */
static int ekt_playout(void *st, game_rng *rng) {
    ekt_state *s = st;
    int acts[GAME_MAX_ACTIONS], joint[GAME_MAX_PLAYERS];
    ekt_fight_map map;
    int map_fresh = 0; /* map describes the state (set right after a fight) */
    for (;;) {
        int have_map = map_fresh;
        map_fresh = 0;
        switch (s->phase) {
        case EKT_OVER: return s->week;
        case EKT_DRAW:
        case EKT_ITEMS: ekt_apply(s, ekt_sample(s, rng)); break;
        case EKT_PLAN: {
            uint32_t nopt = (uint32_t)(1 + EKT_FIELDS + EKT_SIDES * (s->np - 1));
            for (int p = 0; p < s->np; p++) {
                if (s->plan_done[p] || s->planned[p] >= s->home[p]) {
                    joint[p] = GAME_NO_ACTION;
                    continue;
                }
                /* the k-th order of legal(): stop, a field, or a siege of the k-th opponent's
                 * section, whose seat is one higher from p's own on */
                int k = (int)rng_below(rng, nopt);
                joint[p] = k + 3 * (k >= EKT_PLAN_SIEGE + 3 * p);
            }
            ekt_apply_joint(s, joint);
            break;
        }
        case EKT_CHOOSE: {
            if (!have_map) ekt_fight_map_init(s, &map);
            int n = ekt_fights_in(s, &map, s->chooser, acts);
            ekt_apply(s, acts[rng_below(rng, (uint32_t)n)]);
            break;
        }
        case EKT_CARDS: {
            /* the two fighters pick a card value in seat order */
            int a = s->fighter[0], b = s->fighter[1], lo = a < b ? a : b, hi = a ^ b ^ lo;
            int card[EKT_MAX_PLAYERS];
            card[lo] = ekt_random_bit(byte_mask_row(s->hand[lo], EKT_VALUES), rng);
            card[hi] = ekt_random_bit(byte_mask_row(s->hand[hi], EKT_VALUES), rng);
            /* the fight's outcome, then the next choice with a map the choice can reuse */
            ekt_fight_result(s, card[a], card[b]);
            ekt_fight_map_init(s, &map);
            map_fresh = ekt_next_chooser(s, &map);
            break;
        }
        case EKT_BUILD:
            ekt_apply(s, ekt_random_bit(ekt_open_places(s, s->build_player), rng));
            break;
        default: ekt_apply(s, (int)rng_below(rng, 2)); break; /* redeal or exchange: no or yes */
        }
    }
}

/* Checks that a state read from text can be played on from its phase (see eketorp_text.h). */
int ekt_phase_valid(const ekt_state *s, char *err, size_t errlen) {
    const ekt_data *d = ekt_data_current();
    int deck = ekt_count(s->deck) + ekt_count(s->aside);
    if (s->weeks < 1 || s->week < 1 || s->week > s->weeks) {
        snprintf(err, errlen, "week=%d weeks=%d: need 1 <= week <= weeks", s->week, s->weeks);
        return -1;
    }
    for (int p = 0; p < s->np; p++) {
        int planned = 0;
        for (int f = 0; f < EKT_FIELDS; f++) planned += s->plan_field[p][f];
        for (int q = 0; q < s->np; q++)
            for (int side = 0; side < EKT_SIDES; side++) {
                planned += s->plan_siege[p][q][side];
                if (q == p && (s->siege[p][q][side] || s->plan_siege[p][q][side])) {
                    snprintf(err, errlen, "player %d besieges his own stronghold", p);
                    return -1;
                }
            }
        if (planned != s->planned[p] || (s->phase == EKT_PLAN && planned > s->home[p])) {
            snprintf(err, errlen, "player %d: planned=%d does not match his orders", p,
                     s->planned[p]);
            return -1;
        }
    }
    const char *bad = NULL;
    int acts[GAME_MAX_ACTIONS];
    switch (s->phase) {
    case EKT_DRAW:
        if (s->draw_left < 1 || deck < s->draw_left ||
            (s->draw_then != EKT_DRAW && s->draw_then != EKT_REDEAL &&
             s->draw_then != EKT_EXCHANGE))
            bad = "draw: draw_left, the deck or draw_then does not allow a draw";
        else if (s->draw_then == EKT_DRAW && s->setup_next >= s->np)
            bad = "draw: the opening deal is over (setup_next)";
        break;
    case EKT_REDEAL:
        if (s->setup_next >= s->np) bad = "redeal: setup_next is past the last player";
        break;
    case EKT_ITEMS:
        if (__builtin_popcount(s->items_used) >= d->item_count) bad = "items: no item card left";
        break;
    case EKT_CHOOSE:
        if (ekt_fights(s, s->chooser, acts) == 0) bad = "choose: the chooser has no fight";
        break;
    case EKT_EXCHANGE:
    case EKT_CARDS: {
        int n = ekt_fights(s, s->fighter[0], acts), found = 0;
        for (int i = 0; i < n; i++) found |= acts[i] == s->fight;
        if (!found || ekt_fight_opponent(s, s->fighter[0], s->fight) != s->fighter[1])
            bad = "the fight under way (fight, fighter) is not a fight of fighter 0";
        else if (!ekt_count(s->hand[s->fighter[0]]) || !ekt_count(s->hand[s->fighter[1]]))
            bad = "a fighter has no cards in hand";
        else if (s->phase == EKT_EXCHANGE &&
                 (s->exch_step > 1 || !ekt_can_exchange(s, ekt_exchanger(s))))
            bad = "exchange: exch_step names no player who can exchange";
        break;
    }
    case EKT_BUILD:
        if (s->build_count >= s->np || !ekt_next_gain(s, s->build_player) ||
            ekt_legal(s, s->build_player, acts) == 0)
            bad = "build: the builder has nothing to build or no place";
        break;
    default: break;
    }
    if (bad) {
        snprintf(err, errlen, "%s", bad);
        return -1;
    }
    return 0;
}

/* Sets up a game. */
int ekt_init(ekt_state *s, int players, const char *options, char *err, size_t errlen) {
    static const char *const known[] = {"sally", "rotten", "weeks", NULL};
    memset(s, 0, sizeof *s);
    if (players < 3 || players > EKT_MAX_PLAYERS) {
        snprintf(err, errlen, "Eketorp needs 3 to 6 players, not %d", players);
        return -1;
    }
    if (game_check_options(options, known, err, errlen)) return -1;
    int sally = 0, rotten = 0, weeks = 12;
    if (game_option_int(options, "sally", 0, 1, &sally, err, errlen) ||
        game_option_int(options, "rotten", 0, 2, &rotten, err, errlen) ||
        game_option_int(options, "weeks", 1, 60, &weeks, err, errlen))
        return -1;
    const ekt_data *d = ekt_data_current();
    int cards = 0;
    for (int v = 1; v < EKT_VALUES; v++) cards += d->cards[v];
    if (cards < 4 * players + 4) {
        snprintf(err, errlen, "the pack of %d cards is too small for %d players", cards, players);
        return -1;
    }
    s->np = (uint8_t)players;
    s->opt_sally = (uint8_t)sally;
    s->opt_rotten = (uint8_t)rotten;
    s->weeks = (uint8_t)weeks;
    s->week = 1;
    int pieces = players == 6 ? 5 : players >= 4 ? 6 : 8;
    for (int p = 0; p < players; p++) {
        s->pieces[p] = (uint8_t)pieces;
        s->home[p] = (uint8_t)pieces;
        s->amulets[p] = 5;
    }
    memcpy(s->deck, d->cards, sizeof s->deck);
    memcpy(s->supply, d->supply, sizeof s->supply);
    s->setup_next = 0;
    ekt_start_draw(s, s->start, 4, EKT_DRAW);
    return 0;
}

/* Table entry for init. */
static int ekt_init_any(void *st, int players, const char *options, char *err, size_t errlen) {
    return ekt_init(st, players, options, err, errlen);
}

const game_def ekt_game = {
    .name = "eketorp",
    .title = "Eketorp",
    .min_players = 3,
    .max_players = EKT_MAX_PLAYERS,
    .default_players = 4,
    .state_size = sizeof(ekt_state),
    .options_help = "sally=0|1      add-on rule: the defender may sally (default 0)\n"
                    "rotten=0|1|2   add-on rule: foliage and wood rot above 3 per field, counted\n"
                    "               together (1) or each on its own (2); default 0\n"
                    "weeks=N        weeks at most (default 12)\n",
    .init = ekt_init_any,
    .node = ekt_node,
    .to_move = ekt_to_move,
    .legal = ekt_legal,
    .chance = ekt_chance,
    .sample_chance = ekt_sample,
    .apply = ekt_apply,
    .apply_joint = ekt_apply_joint,
    .determinize = ekt_determinize,
    .result = ekt_result,
    .points = ekt_points,
    .length = ekt_length,
    .players = ekt_players,
    .render = ekt_render,
    .format = ekt_format,
    .parse = ekt_parse,
    .action_text = ekt_action_text,
    .heuristic = ekt_heuristic,
    .playout = ekt_playout,
};
