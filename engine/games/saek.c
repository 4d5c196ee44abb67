/* Saekonungr: the rules of the dice game (see saek.h and docs/saekonungr.md). */
#include "engine/games/saek.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int saek_ship_number[SAEK_SHIPS] = {3, 4, 5, 6, 8, 9, 10, 11};
const int saek_ship_index[13] = {-1, -1, -1, 0, 1, 2, 3, -1, 4, 5, 6, 7, -1};
const int saek_2d6_ways[13] = {0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1};

/* The 36 equally likely 2D6 sums. */
static const uint8_t saek_roll36[36] = {2, 3, 4, 5, 6, 7,  3, 4, 5, 6, 7,  8,  4, 5, 6, 7,  8,  9,
                                        5, 6, 7, 8, 9, 10, 6, 7, 8, 9, 10, 11, 7, 8, 9, 10, 11, 12};

static const char *const saek_phase_names[] = {"start", "roll",  "vdice", "vroll",
                                               "raid",  "raid7", "over"};

/* Number of coins on the ships. */
int saek_board_ship_coins(const saek_state *s) {
    return __builtin_popcount(s->ships);
}

/* Number of players still in. */
static inline int saek_alive_count(const saek_state *s) {
    return __builtin_popcount(s->alive);
}

/* Ends the current turn: the next player still in rolls, unless the game is over. */
static inline void saek_end_turn(saek_state *s) {
    if (s->phase == SAEK_OVER) return;
    s->rolls = 0;
    s->dice = 0;
    if (s->opt_maxturns && s->turns >= s->opt_maxturns) {
        s->phase = SAEK_OVER;
        return;
    }
    int p = s->to_move;
    do {
        if (++p == s->nplayers) p = 0;
    } while (!(s->alive >> p & 1));
    s->to_move = (uint8_t)p;
    s->phase = SAEK_ROLL;
}

/* Removes player p from the game, ending it when one player is left (or at the first
 * expulsion when that option is on). */
static inline void saek_expel(saek_state *s, int p) {
    s->alive &= (uint8_t) ~(1u << p);
    if (s->first_out == 255) s->first_out = (uint8_t)p;
    if (saek_alive_count(s) <= 1 || s->opt_firstout) s->phase = SAEK_OVER;
}

/* The mover pays one coin to the longship; returns 0 (and expels) when the mover cannot. */
static inline int saek_pay_longship(saek_state *s) {
    int p = s->to_move;
    if (s->coins[p] == 0) {
        saek_expel(s, p);
        return 0;
    }
    s->coins[p]--;
    s->longship++;
    return 1;
}

/* Ship bit of each 2D6 sum (0 for 2, 7 and 12). */
static const uint8_t saek_ship_bit[13] = {0, 0, 0, 1, 2, 4, 8, 0, 16, 32, 64, 128, 0};

/* Applies a trading roll. A ship roll either takes the ship's coin or puts one there, so the
 * ship's bit flips either way and the treasury moves by one; only a roller with nothing to pay
 * needs a branch. */
static inline void saek_trade(saek_state *s, int sum) {
    int p = s->to_move;
    s->turns++;
    uint8_t bit = saek_ship_bit[sum];
    if (__builtin_expect(bit != 0, 1)) {
        int has = (s->ships & bit) != 0;
        if (__builtin_expect(!has && s->coins[p] == 0, 0)) {
            saek_expel(s, p);
        } else {
            s->coins[p] = (int16_t)(s->coins[p] + 2 * has - 1);
            s->ships ^= bit;
        }
        saek_end_turn(s);
        return;
    }
    if (sum == 7) {
        if (!saek_pay_longship(s)) {
            saek_end_turn(s);
            return;
        }
        if (s->opt_vikingdice) {
            s->phase = SAEK_VDICE;
        } else {
            s->phase = SAEK_RAID;
            s->rolls = 1;
        }
        return;
    }
    /* 2 or 12: every ship's coin */
    s->coins[p] = (int16_t)(s->coins[p] + __builtin_popcount(s->ships));
    s->ships = 0;
    saek_end_turn(s);
}

/* Applies a raid roll. */
static inline void saek_raid(saek_state *s, int sum) {
    int p = s->to_move;
    if (sum == 7) {
        s->phase = SAEK_RAID7;
        return;
    }
    if (sum == 2 || sum == 12) {
        s->coins[p] = (int16_t)(s->coins[p] + __builtin_popcount(s->ships) + s->longship);
        s->ships = 0;
        s->longship = 0;
    } else {
        uint8_t bit = (uint8_t)(1u << saek_ship_index[sum]);
        if (s->ships & bit) {
            s->ships &= (uint8_t)~bit;
            s->coins[p]++;
        }
    }
    if (--s->rolls == 0) saek_end_turn(s);
}

/* Takes the board coins of raid-7 collection a (not a robbery) off the ships and the longship;
 * returns how many were taken. */
static inline int saek_collect_board(int a, unsigned *ships, int *longship) {
    if (a == SAEK_ACT_NONE) return 0;
    int loc[2] = {a >= SAEK_ACT_ONE ? a - SAEK_ACT_ONE : (a - SAEK_ACT_PAIR) / 9,
                  (a - SAEK_ACT_PAIR) % 9};
    int n = a >= SAEK_ACT_ONE ? 1 : 2;
    for (int i = 0; i < n; i++) {
        if (loc[i] == SAEK_LONGSHIP)
            --*longship;
        else
            *ships &= ~(1u << loc[i]);
    }
    return n;
}

/* Applies a raid-7 collection, then the repeat raid roll follows. */
static inline void saek_collect(saek_state *s, int a) {
    if (a >= SAEK_ACT_OPP) {
        s->coins[a - SAEK_ACT_OPP]--;
        s->coins[s->to_move]++;
    } else {
        unsigned ships = s->ships;
        int longship = s->longship;
        s->coins[s->to_move] =
            (int16_t)(s->coins[s->to_move] + saek_collect_board(a, &ships, &longship));
        s->ships = (uint8_t)ships;
        s->longship = (int16_t)longship;
    }
    s->phase = SAEK_RAID;
}

/* Applies the Viking dice: X results pay the longship, shields add raid rolls. */
static inline void saek_viking_dice(saek_state *s, int shields) {
    for (int x = 0; x < s->dice - shields; x++)
        if (!saek_pay_longship(s)) {
            saek_end_turn(s);
            return;
        }
    s->rolls = (uint8_t)(1 + shields);
    s->phase = SAEK_RAID;
}

/* Returns the node kind of a state. */
static int saek_node(const void *st) {
    switch (((const saek_state *)st)->phase) {
    case SAEK_VDICE:
    case SAEK_RAID7: return GAME_NODE_DECISION;
    case SAEK_OVER: return GAME_NODE_TERMINAL;
    default: return GAME_NODE_CHANCE;
    }
}

/* Returns the player to act. */
static int saek_to_move(const void *st) {
    return ((const saek_state *)st)->to_move;
}

/* Lists the raid-7 collections open to the mover. */
static int saek_legal_raid7(const saek_state *s, int *acts) {
    int n = 0;
    int board = __builtin_popcount(s->ships) + s->longship;
    if (board >= 2) {
        for (int i = 0; i <= SAEK_LONGSHIP; i++) {
            int have_i = i < SAEK_LONGSHIP ? (s->ships >> i & 1) : s->longship >= 1;
            if (!have_i) continue;
            for (int j = i; j <= SAEK_LONGSHIP; j++) {
                int ok;
                if (j < SAEK_LONGSHIP)
                    ok = j != i && (s->ships >> j & 1);
                else
                    ok = s->longship >= (i == SAEK_LONGSHIP ? 2 : 1);
                if (ok) acts[n++] = SAEK_ACT_PAIR + i * 9 + j;
            }
        }
    } else if (board == 1) {
        acts[n++] = SAEK_ACT_ONE + (s->longship ? SAEK_LONGSHIP : __builtin_ctz(s->ships));
    } else {
        acts[n++] = SAEK_ACT_NONE;
    }
    for (int q = 0; q < s->nplayers; q++)
        if (q != s->to_move && (s->alive >> q & 1) && s->coins[q] > 0) acts[n++] = SAEK_ACT_OPP + q;
    return n;
}

/* Bit q set: opponent q of the mover may be robbed after a raid 7 (still in, with a coin). */
static inline unsigned saek_rob_mask(const int16_t *coins, int alive, int mover) {
    unsigned rob = 0;
    for (int q = 0; q < SAEK_MAX_PLAYERS; q++) rob |= (unsigned)(coins[q] > 0) << q;
    return rob & (unsigned)alive & ~(1u << mover);
}

/* Number of board collections after a raid 7 (the board part of saek_legal_raid7's list). */
static inline int saek_raid7_board_count(unsigned ships, int l) {
    int m = __builtin_popcount(ships);
    if (m + l < 2) return 1;
    return m * (m - 1) / 2 + (l >= 1) * m + (l >= 2);
}

/* The k-th entry of saek_legal_raid7's list for this board and these robbable opponents, found
 * without writing the list. */
static inline int saek_raid7_kth(unsigned ships, int l, unsigned rob, int k) {
    int nb = saek_raid7_board_count(ships, l);
    if (k >= nb) {
        /* the (k - nb)-th robbable opponent, in seat order */
        for (k -= nb; k > 0; k--) rob &= rob - 1;
        return rob ? SAEK_ACT_OPP + __builtin_ctz(rob) : SAEK_ACT_NONE;
    }
    int board = __builtin_popcount(ships) + l;
    if (board < 2)
        return board ? SAEK_ACT_ONE + (l ? SAEK_LONGSHIP : __builtin_ctz(ships)) : SAEK_ACT_NONE;
    unsigned rest = ships;
    while (rest) {
        int i = __builtin_ctz(rest);
        rest &= rest - 1;
        int later = __builtin_popcount(rest), block = later + (l >= 1);
        if (k < block) {
            if (k == later) return SAEK_ACT_PAIR + i * 9 + SAEK_LONGSHIP;
            unsigned r = rest;
            for (int t = 0; t < k; t++) r &= r - 1;
            return SAEK_ACT_PAIR + i * 9 + __builtin_ctz(r);
        }
        k -= block;
    }
    return SAEK_ACT_PAIR + SAEK_LONGSHIP * 9 + SAEK_LONGSHIP;
}

/* Number of raid-7 collections open to the mover (the length of saek_legal_raid7's list). */
static inline int saek_raid7_count(const saek_state *s) {
    unsigned rob = saek_rob_mask(s->coins, s->alive, s->to_move);
    return saek_raid7_board_count(s->ships, s->longship) + __builtin_popcount(rob);
}

/* The k-th raid-7 collection as the fast playout finds it (tests compare it with legal()). */
int saek_raid7_action(const saek_state *s, int k) {
    unsigned rob = saek_rob_mask(s->coins, s->alive, s->to_move);
    return saek_raid7_kth(s->ships, s->longship, rob, k);
}

/* Lists legal actions or chance outcomes. */
static int saek_legal(const void *st, int player, int *acts) {
    const saek_state *s = st;
    (void)player;
    int n = 0;
    switch (s->phase) {
    case SAEK_START:
        for (int p = 0; p < s->nplayers; p++) acts[n++] = p;
        return n;
    case SAEK_ROLL:
    case SAEK_RAID:
        for (int k = 2; k <= 12; k++) acts[n++] = k;
        return n;
    case SAEK_VDICE:
        for (int d = 0; d <= 2; d++) acts[n++] = d;
        return n;
    case SAEK_VROLL:
        for (int k = 0; k <= s->dice; k++) acts[n++] = k;
        return n;
    case SAEK_RAID7: return saek_legal_raid7(s, acts);
    default: return 0;
    }
}

/* Enumerates chance outcomes with their probabilities. */
static int saek_chance(const void *st, int *outs, double *probs) {
    const saek_state *s = st;
    int n = saek_legal(st, 0, outs);
    for (int i = 0; i < n; i++) {
        if (s->phase == SAEK_START) {
            probs[i] = 1.0 / s->nplayers;
        } else if (s->phase == SAEK_VROLL) {
            probs[i] = (s->dice == 1) ? 0.5 : (outs[i] == 1 ? 0.5 : 0.25);
        } else {
            probs[i] = saek_2d6_ways[outs[i]] / 36.0;
        }
    }
    return n;
}

/* Draws a chance outcome. */
static inline int saek_sample_inline(const saek_state *s, game_rng *rng) {
    switch (s->phase) {
    case SAEK_START: return (int)rng_below(rng, s->nplayers);
    case SAEK_VROLL: return __builtin_popcount(rng_below(rng, 1u << s->dice));
    default: return saek_roll36[rng_below(rng, 36)];
    }
}

/* Draws a chance outcome (table entry). */
static int saek_sample(const void *st, game_rng *rng) {
    return saek_sample_inline(st, rng);
}

/* Applies an action or chance outcome. */
static inline void saek_apply_inline(saek_state *s, int a) {
    switch (s->phase) {
    case SAEK_START:
        s->to_move = (uint8_t)a;
        s->phase = SAEK_ROLL;
        break;
    case SAEK_ROLL: saek_trade(s, a); break;
    case SAEK_VDICE:
        s->dice = (uint8_t)a;
        if (a == 0) {
            s->rolls = 1;
            s->phase = SAEK_RAID;
        } else {
            s->phase = SAEK_VROLL;
        }
        break;
    case SAEK_VROLL: saek_viking_dice(s, a); break;
    case SAEK_RAID: saek_raid(s, a); break;
    case SAEK_RAID7: saek_collect(s, a); break;
    default: break;
    }
}

/* Applies an action or chance outcome (table entry). */
static void saek_apply(void *st, int a) {
    saek_apply_inline(st, a);
}

/* Writes each player's share of the win. */
static void saek_result(const void *st, double *share) {
    const saek_state *s = st;
    uint8_t winners = s->alive;
    int k = __builtin_popcount(winners);
    for (int p = 0; p < s->nplayers; p++) share[p] = (winners >> p & 1) && k ? 1.0 / k : 0.0;
}

/* Writes each player's treasury. */
static void saek_points(const void *st, double *pts) {
    const saek_state *s = st;
    for (int p = 0; p < s->nplayers; p++) pts[p] = s->coins[p];
}

/* Returns the number of trading turns begun. */
static int saek_length(const void *st) {
    return ((const saek_state *)st)->turns;
}

/* Returns the number of players. */
static int saek_players(const void *st) {
    return ((const saek_state *)st)->nplayers;
}

/* Applies one uniformly random step exactly as game_step_random does for this game. */
static inline void saek_step_random(saek_state *s, game_rng *rng) {
    if (s->phase == SAEK_VDICE)
        saek_apply_inline(s, (int)rng_below(rng, 3));
    else if (s->phase == SAEK_RAID7)
        saek_collect(s, saek_raid7_action(s, (int)rng_below(rng, (uint32_t)saek_raid7_count(s))));
    else
        saek_apply_inline(s, saek_sample_inline(s, rng));
}

/*
 * What a 2D6 roll does to the board, by the index 0..35 that saek_roll36 turns into the sum:
 * bits 0-7 the ships it takes a coin from (its own ship, or every ship for 2 and 12), bits 8-15
 * the ship a trading roll puts a coin on when empty, bits 16-31 all set for 2 and 12 (a raid
 * sweep also empties the longship). A 7 does nothing to the board: its entry is 0. Ships 3-6
 * are locations 0-3 and ships 8-11 locations 4-7 (saek_ship_index), written as constants.
 */
static const uint32_t saek_roll_effect[36] = {
#define SAEK_FX(sum)                                                                               \
    ((sum) == 7                  ? 0u                                                              \
     : (sum) == 2 || (sum) == 12 ? 0xffff00ffu                                                     \
                                 : (1u << (((sum) < 7 ? (sum)-3 : (sum)-4) & 7)) * 0x101u)
    SAEK_FX(2), SAEK_FX(3), SAEK_FX(4), SAEK_FX(5),  SAEK_FX(6),  SAEK_FX(7),
    SAEK_FX(3), SAEK_FX(4), SAEK_FX(5), SAEK_FX(6),  SAEK_FX(7),  SAEK_FX(8),
    SAEK_FX(4), SAEK_FX(5), SAEK_FX(6), SAEK_FX(7),  SAEK_FX(8),  SAEK_FX(9),
    SAEK_FX(5), SAEK_FX(6), SAEK_FX(7), SAEK_FX(8),  SAEK_FX(9),  SAEK_FX(10),
    SAEK_FX(6), SAEK_FX(7), SAEK_FX(8), SAEK_FX(9),  SAEK_FX(10), SAEK_FX(11),
    SAEK_FX(7), SAEK_FX(8), SAEK_FX(9), SAEK_FX(10), SAEK_FX(11), SAEK_FX(12),
#undef SAEK_FX
};

/* The seat after each seat q among the players still in (4 bits per seat). */
static inline uint32_t saek_next_table(int np, int alive) {
    uint32_t next = 0;
    for (int q = 0; q < np; q++) {
        int r = q;
        do {
            if (++r == np) r = 0;
        } while (!(alive >> r & 1) && r != q);
        next |= (uint32_t)r << (4 * q);
    }
    return next;
}

/*
 * Plays whole turns from the start of a trading turn to the end of the game with uniformly
 * random choices, drawing exactly what game_playout_random draws. Everything lives in locals:
 * a trading roll is one table entry applied without branches (the roller's coin change is the
 * coins taken minus the coin put), the next seat comes from a packed table, and a raid runs
 * straight through. Only a 7 and an expulsion leave the straight path.
 */
static inline void saek_play_turns(saek_state *st, game_rng *rng_io) {
    game_rng rng = *rng_io;
    int np = st->nplayers, p = st->to_move, alive = st->alive, first_out = st->first_out;
    int longship = st->longship, turns = st->turns, rolls = st->rolls, dice = st->dice;
    int cap = st->opt_maxturns > 0 ? st->opt_maxturns : INT_MAX;
    unsigned ships = st->ships;
    int16_t c[SAEK_MAX_PLAYERS];
    for (int q = 0; q < SAEK_MAX_PLAYERS; q++) c[q] = st->coins[q];
    uint32_t next = saek_next_table(np, alive);
    for (;;) {
        uint32_t fx = saek_roll_effect[rng_below(&rng, 36)];
        int expel = 0;
        turns++;
        if (__builtin_expect(fx != 0, 1)) {
            /* a ship or a sweep: take the coins, or put one on an empty ship */
            unsigned take = ships & fx & 0xffu, put = ~ships & (fx >> 8) & 0xffu;
            if (__builtin_expect((put != 0) & (c[p] == 0), 0)) {
                expel = 1;
            } else {
                c[p] = (int16_t)(c[p] + __builtin_popcount(take) - (put != 0));
                ships ^= take | put;
            }
        } else if (c[p] == 0) {
            expel = 1; /* cannot pay for the raid */
        } else {
            /* a 7: pay the raid, the Viking dice and their X coins, then the raid rolls */
            c[p]--;
            longship++;
            int owed = 1;
            if (st->opt_vikingdice) {
                dice = (int)rng_below(&rng, 3);
                if (dice) {
                    int shields = __builtin_popcount(rng_below(&rng, 1u << dice));
                    int x = dice - shields;
                    if (__builtin_expect(c[p] < x, 0)) {
                        longship += c[p];
                        c[p] = 0;
                        expel = 1;
                    } else {
                        c[p] = (int16_t)(c[p] - x);
                        longship += x;
                        owed = 1 + shields;
                    }
                }
            }
            if (!expel) {
                rolls = owed;
                while (owed > 0) {
                    fx = saek_roll_effect[rng_below(&rng, 36)];
                    if (fx == 0) {
                        /* a 7 in the raid: collect, then roll again (the roll is not used up) */
                        unsigned rob = saek_rob_mask(c, alive, p);
                        uint32_t n = (uint32_t)(saek_raid7_board_count(ships, longship) +
                                                __builtin_popcount(rob));
                        int a = saek_raid7_kth(ships, longship, rob, (int)rng_below(&rng, n));
                        if (a >= SAEK_ACT_OPP) {
                            c[a - SAEK_ACT_OPP]--;
                            c[p]++;
                        } else {
                            c[p] = (int16_t)(c[p] + saek_collect_board(a, &ships, &longship));
                        }
                        continue;
                    }
                    /* a ship roll takes its coin if it has one; 2 and 12 sweep the board */
                    unsigned take = ships & fx & 0xffu;
                    int sweep = -(int)(fx >> 16 & 1);
                    c[p] = (int16_t)(c[p] + __builtin_popcount(take) + (longship & sweep));
                    longship &= ~sweep;
                    ships ^= take;
                    owed--;
                    rolls = owed;
                }
            }
        }
        if (__builtin_expect(expel, 0)) {
            alive &= ~(1 << p);
            if (first_out == 255) first_out = p;
            if (__builtin_popcount((unsigned)alive) <= 1 || st->opt_firstout) break;
            next = saek_next_table(np, alive);
        }
        /* the end of the turn */
        rolls = 0;
        dice = 0;
        if (__builtin_expect(turns >= cap, 0)) break;
        p = (int)(next >> (4 * p) & 15);
    }
    memcpy(st->coins, c, sizeof c);
    st->longship = (int16_t)longship;
    st->ships = (uint8_t)ships;
    st->alive = (uint8_t)alive;
    st->to_move = (uint8_t)p;
    st->first_out = (uint8_t)first_out;
    st->phase = SAEK_OVER;
    st->rolls = (uint8_t)rolls;
    st->dice = (uint8_t)dice;
    st->turns = turns;
    *rng_io = rng;
}

/* Plays uniformly random actions to the end (the same draws as game_playout_random): a turn in
 * progress is finished step by step, then whole turns run in saek_play_turns. */
static int saek_playout(void *st, game_rng *rng_out) {
    saek_state s = *(saek_state *)st;
    game_rng rng = *rng_out;
    while (s.phase != SAEK_ROLL && s.phase != SAEK_OVER) saek_step_random(&s, &rng);
    if (s.phase == SAEK_ROLL) saek_play_turns(&s, &rng);
    *(saek_state *)st = s;
    *rng_out = rng;
    return s.turns;
}

/* Expected coins one raid roll brings the mover (7 counted as two coins when available). */
static double saek_raid_value(const saek_state *s) {
    double v = 0;
    for (int i = 0; i < SAEK_SHIPS; i++)
        if (s->ships >> i & 1) v += saek_2d6_ways[saek_ship_number[i]];
    v += 2.0 * (__builtin_popcount(s->ships) + s->longship);
    int board = __builtin_popcount(s->ships) + s->longship;
    v += 6.0 * (board >= 2 ? 2 : 1);
    return v / 36.0;
}

/* The hand-written policy: roll Viking dice when a raid roll is worth more than the coin an X
 * costs and the treasury can bear it; after a raid 7 take the most coins, preferring the
 * longship, or squeeze a poor opponent. */
static int saek_heuristic(const void *st, int player, const int *acts, int n, game_rng *rng) {
    const saek_state *s = st;
    (void)rng;
    if (s->phase == SAEK_VDICE) {
        double v = saek_raid_value(s);
        int want = (v > 1.0 && s->coins[player] >= 3) ? 2 : (v > 1.0 && s->coins[player] >= 2);
        for (int i = 0; i < n; i++)
            if (acts[i] == want) return i;
        return 0;
    }
    if (s->phase != SAEK_RAID7) return 0;
    int best = 0;
    double best_score = -1e9;
    for (int i = 0; i < n; i++) {
        int a = acts[i];
        double score;
        if (a >= SAEK_ACT_OPP) {
            int q = a - SAEK_ACT_OPP;
            score = 1.0 + (saek_alive_count(s) == 2 ? 1.0 : 0.3) + (s->coins[q] <= 2 ? 0.5 : 0);
        } else if (a >= SAEK_ACT_ONE) {
            score = 1.0 + (a - SAEK_ACT_ONE == SAEK_LONGSHIP ? 0.2 : 0);
        } else if (a == SAEK_ACT_NONE) {
            score = 0;
        } else {
            int i1 = (a - SAEK_ACT_PAIR) / 9, j1 = (a - SAEK_ACT_PAIR) % 9;
            score = 2.0 + 0.2 * (i1 == SAEK_LONGSHIP) + 0.2 * (j1 == SAEK_LONGSHIP);
        }
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best;
}

/* Names an action for people. */
static int saek_action_text(const void *st, int player, int a, char *buf, size_t n) {
    const saek_state *s = st;
    (void)player;
    if (s->phase == SAEK_VDICE)
        return snprintf(buf, n,
                        a == 0   ? "no Viking dice"
                        : a == 1 ? "one Viking die"
                                 : "two Viking dice");
    if (s->phase != SAEK_RAID7) return snprintf(buf, n, "%d", a);
    if (a >= SAEK_ACT_OPP) return snprintf(buf, n, "one coin from player %d", a - SAEK_ACT_OPP);
    if (a == SAEK_ACT_NONE) return snprintf(buf, n, "nothing (empty board)");
    char loc[2][16];
    int l[2], k;
    if (a >= SAEK_ACT_ONE) {
        l[0] = a - SAEK_ACT_ONE;
        k = 1;
    } else {
        l[0] = (a - SAEK_ACT_PAIR) / 9;
        l[1] = (a - SAEK_ACT_PAIR) % 9;
        k = 2;
    }
    for (int i = 0; i < k; i++) {
        if (l[i] == SAEK_LONGSHIP)
            snprintf(loc[i], sizeof loc[i], "longship");
        else
            snprintf(loc[i], sizeof loc[i], "ship %d", saek_ship_number[l[i]]);
    }
    if (k == 1) return snprintf(buf, n, "the coin on the %s", loc[0]);
    return snprintf(buf, n, "two coins: %s and %s", loc[0], loc[1]);
}

/* Writes a picture of the state. */
static int saek_render(const void *st, char *buf, size_t n) {
    const saek_state *s = st;
    size_t len = 0;
#define SAEK_PUT(...)                                                                              \
    do {                                                                                           \
        int w_ = snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__);                          \
        if (w_ > 0) len += (size_t)w_;                                                             \
    } while (0)
    SAEK_PUT("Saekonungr, %d players, turn %d, phase %s, player %d to act\n", s->nplayers, s->turns,
             saek_phase_names[s->phase], s->to_move);
    SAEK_PUT("ships:");
    for (int i = 0; i < SAEK_SHIPS; i++)
        SAEK_PUT(" %d:%c", saek_ship_number[i], (s->ships >> i & 1) ? 'o' : '.');
    SAEK_PUT("   longship: %d\ntreasuries:", s->longship);
    for (int p = 0; p < s->nplayers; p++) {
        if (s->alive >> p & 1)
            SAEK_PUT(" P%d=%d", p, s->coins[p]);
        else
            SAEK_PUT(" P%d=out", p);
    }
    SAEK_PUT("\n");
#undef SAEK_PUT
    return (int)(len < n ? len : (n ? n - 1 : 0));
}

/* Writes the state as one line that saek_parse reads back. */
static int saek_format(const void *st, char *buf, size_t n) {
    const saek_state *s = st;
    char coins[64] = "", ships[40] = "";
    size_t c = 0, sh = 0;
    for (int p = 0; p < s->nplayers; p++) {
        if (s->alive >> p & 1)
            c += (size_t)snprintf(coins + c, sizeof coins - c, "%s%d", p ? "," : "", s->coins[p]);
        else
            c += (size_t)snprintf(coins + c, sizeof coins - c, "%sx", p ? "," : "");
    }
    for (int i = 0; i < SAEK_SHIPS; i++)
        if (s->ships >> i & 1)
            sh += (size_t)snprintf(ships + sh, sizeof ships - sh, "%s%d", sh ? "," : "",
                                   saek_ship_number[i]);
    if (!sh) snprintf(ships, sizeof ships, "-");
    return snprintf(buf, n,
                    "coins=%s ships=%s long=%d move=%d phase=%s rolls=%d dice=%d turns=%d "
                    "vikingdice=%d firstout=%d",
                    coins, ships, s->longship, s->to_move, saek_phase_names[s->phase], s->rolls,
                    s->dice, s->turns, s->opt_vikingdice, s->opt_firstout);
}

/* Reads a non-negative integer token in [lo, hi]; 0 on success. */
static int saek_read_int(const char *v, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi) return -1;
    *out = (int)x;
    return 0;
}

/* Reads a state from text: space-separated key=value words as saek_format writes them. */
static int saek_parse(void *st, const char *text, char *err, size_t errlen) {
    saek_state s;
    char ebuf[8];
    saek_init(&s, 2, NULL, ebuf, sizeof ebuf);
    s.phase = SAEK_ROLL;
    s.to_move = 0;
    int have_coins = 0;
    char word[256];
    const char *p = text;
    char *val;
    int got;
    while ((got = game_state_word(&p, word, sizeof word, &val, err, errlen)) > 0) {
        const char *key = word;
        int x;
        if (strcmp(key, "coins") == 0) {
            int np = 0;
            s.alive = 0;
            char tmp[256];
            snprintf(tmp, sizeof tmp, "%s", val);
            for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok;
                 tok = strtok_r(NULL, ",", &save)) {
                if (np >= SAEK_MAX_PLAYERS) {
                    snprintf(err, errlen, "coins=%s: more than %d players", val, SAEK_MAX_PLAYERS);
                    return -1;
                }
                if (strcmp(tok, "x") == 0) {
                    s.coins[np] = 0;
                } else if (saek_read_int(tok, 0, 999, &x) == 0) {
                    s.coins[np] = (int16_t)x;
                    s.alive |= (uint8_t)(1u << np);
                } else {
                    snprintf(err, errlen, "coins=%s: '%s' is not a treasury (0-999 or x)", val,
                             tok);
                    return -1;
                }
                np++;
            }
            if (np < 2) {
                snprintf(err, errlen, "coins=%s: need 2 to 6 players", val);
                return -1;
            }
            s.nplayers = (uint8_t)np;
            have_coins = 1;
        } else if (strcmp(key, "ships") == 0) {
            s.ships = 0;
            if (strcmp(val, "-") != 0) {
                char tmp[256];
                snprintf(tmp, sizeof tmp, "%s", val);
                for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok;
                     tok = strtok_r(NULL, ",", &save)) {
                    if (saek_read_int(tok, 2, 12, &x) || saek_ship_index[x] < 0) {
                        snprintf(err, errlen, "ships=%s: '%s' is not a ship (3-6, 8-11)", val, tok);
                        return -1;
                    }
                    if (s.ships >> saek_ship_index[x] & 1) {
                        snprintf(err, errlen, "ships=%s: ship %d listed twice", val, x);
                        return -1;
                    }
                    s.ships |= (uint8_t)(1u << saek_ship_index[x]);
                }
            }
        } else if (strcmp(key, "long") == 0) {
            if (saek_read_int(val, 0, 999, &x)) goto bad;
            s.longship = (int16_t)x;
        } else if (strcmp(key, "move") == 0) {
            if (saek_read_int(val, 0, SAEK_MAX_PLAYERS - 1, &x)) goto bad;
            s.to_move = (uint8_t)x;
        } else if (strcmp(key, "phase") == 0) {
            int found = -1;
            for (int i = 0; i <= SAEK_OVER; i++)
                if (strcmp(val, saek_phase_names[i]) == 0) found = i;
            if (found < 0) {
                snprintf(err, errlen,
                         "phase=%s: expected start, roll, vdice, vroll, raid, raid7 or over", val);
                return -1;
            }
            s.phase = (uint8_t)found;
        } else if (strcmp(key, "rolls") == 0) {
            if (saek_read_int(val, 0, 3, &x)) goto bad;
            s.rolls = (uint8_t)x;
        } else if (strcmp(key, "dice") == 0) {
            if (saek_read_int(val, 0, 2, &x)) goto bad;
            s.dice = (uint8_t)x;
        } else if (strcmp(key, "turns") == 0) {
            if (saek_read_int(val, 0, 1 << 30, &x)) goto bad;
            s.turns = x;
        } else if (strcmp(key, "vikingdice") == 0) {
            if (saek_read_int(val, 0, 1, &x)) goto bad;
            s.opt_vikingdice = (uint8_t)x;
        } else if (strcmp(key, "firstout") == 0) {
            if (saek_read_int(val, 0, 1, &x)) goto bad;
            s.opt_firstout = (uint8_t)x;
        } else {
            snprintf(err, errlen,
                     "unknown STATE key '%s' (known: coins ships long move phase "
                     "rolls dice turns vikingdice firstout)",
                     key);
            return -1;
        }
        continue;
    bad:
        snprintf(err, errlen, "bad value in STATE word '%s=%s'", key, val);
        return -1;
    }
    if (got < 0) return -1;
    if (!have_coins) {
        snprintf(err, errlen, "STATE needs coins=... (one treasury per player, x if expelled)");
        return -1;
    }
    if (s.to_move >= s.nplayers || !(s.alive >> s.to_move & 1)) {
        snprintf(err, errlen, "move=%d: that player is not in the game", s.to_move);
        return -1;
    }
    if ((s.phase == SAEK_RAID || s.phase == SAEK_RAID7) && s.rolls == 0) s.rolls = 1;
    if (s.phase == SAEK_VROLL && s.dice == 0) {
        snprintf(err, errlen, "phase=vroll needs dice=1 or dice=2");
        return -1;
    }
    if (s.phase == SAEK_VDICE && !s.opt_vikingdice) {
        snprintf(err, errlen, "phase=vdice needs vikingdice=1");
        return -1;
    }
    if (__builtin_popcount(s.alive) < 2 && s.phase != SAEK_OVER) s.phase = SAEK_OVER;
    memcpy(st, &s, sizeof s);
    return 0;
}

/* Sets up a game with the standard treasury for the player count and the given options. */
int saek_init(saek_state *s, int players, const char *options, char *err, size_t errlen) {
    static const char *const known[] = {"coins", "vikingdice", "firstout",
                                        "start", "maxturns",   NULL};
    memset(s, 0, sizeof *s);
    if (players < 2 || players > SAEK_MAX_PLAYERS) {
        snprintf(err, errlen, "Saekonungr needs 2 to 6 players, not %d", players);
        return -1;
    }
    if (game_check_options(options, known, err, errlen)) return -1;
    int coins = players <= 4 ? 15 : players == 5 ? 12 : 10;
    int vd = 1, fo = 0, maxturns = 1000000;
    if (game_option_int(options, "coins", 1, 999, &coins, err, errlen) ||
        game_option_int(options, "vikingdice", 0, 1, &vd, err, errlen) ||
        game_option_int(options, "firstout", 0, 1, &fo, err, errlen) ||
        game_option_int(options, "maxturns", 0, 1 << 30, &maxturns, err, errlen))
        return -1;
    char v[32];
    s->opt_start = 255;
    if (game_option(options, "start", v, sizeof v) && strcmp(v, "roll") != 0) {
        int x;
        if (game_option_int(options, "start", 0, players - 1, &x, err, errlen)) return -1;
        s->opt_start = (uint8_t)x;
    }
    s->nplayers = (uint8_t)players;
    for (int p = 0; p < players; p++) s->coins[p] = (int16_t)coins;
    s->alive = (uint8_t)((1u << players) - 1);
    s->first_out = 255;
    s->opt_vikingdice = (uint8_t)vd;
    s->opt_firstout = (uint8_t)fo;
    s->opt_maxturns = maxturns;
    if (s->opt_start == 255) {
        s->phase = SAEK_START;
    } else {
        s->phase = SAEK_ROLL;
        s->to_move = s->opt_start;
    }
    return 0;
}

/* Table entry for init. */
static int saek_init_any(void *st, int players, const char *options, char *err, size_t errlen) {
    return saek_init(st, players, options, err, errlen);
}

const game_def saek_game = {
    .name = "saek",
    .title = "Saekonungr",
    .min_players = 2,
    .max_players = SAEK_MAX_PLAYERS,
    .default_players = 4,
    .state_size = sizeof(saek_state),
    .options_help = "coins=N        starting treasury (default 15, 12 for 5, 10 for 6 players)\n"
                    "vikingdice=0|1 allow the optional Viking dice (default 1)\n"
                    "firstout=0|1   end at the first expulsion; the others share the win (0)\n"
                    "start=roll|P   roll off for the first player, or seat P starts (roll)\n"
                    "maxturns=N     stop after N turns, a draw among those still in (1000000)\n",
    .init = saek_init_any,
    .node = saek_node,
    .to_move = saek_to_move,
    .legal = saek_legal,
    .chance = saek_chance,
    .sample_chance = saek_sample,
    .apply = saek_apply,
    .apply_joint = NULL,
    .determinize = NULL,
    .result = saek_result,
    .points = saek_points,
    .length = saek_length,
    .players = saek_players,
    .render = saek_render,
    .format = saek_format,
    .parse = saek_parse,
    .action_text = saek_action_text,
    .heuristic = saek_heuristic,
    .playout = saek_playout,
};
