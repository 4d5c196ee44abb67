/*
 * Saekonungr ("Sea King"), the Viking dice game for 2 to 6 players, as a game_def.
 *
 * saek_state holds the whole game: each player's treasury (coins[p], never negative), which
 * players are still in (alive, one bit per player), the eight trading ships as a bit mask (bit i
 * set = ship saek_ship_number[i] carries its one coin; a ship never holds more than one), the
 * coins on the central longship, whose turn it is, the phase of the turn, and for a raid the
 * number of raid rolls still owed and the Viking dice chosen. Coins are conserved: the sum of
 * the treasuries, the ships and the longship never changes. The options (Viking dice allowed,
 * end at the first expulsion, who starts, turn cap) are fields of the state too.
 *
 * Phases and the node kind each gives:
 *   SAEK_START  chance   the roll-off for the first player (each player equally likely);
 *   SAEK_ROLL   chance   the trading roll of 2D6 (outcome = the sum 2..12);
 *   SAEK_VDICE  decision after paying for a raid: roll 0, 1 or 2 Viking dice (action = count);
 *   SAEK_VROLL  chance   the Viking dice (outcome = number of shields, 0..dice);
 *   SAEK_RAID   chance   a raid roll of 2D6 (outcome = the sum);
 *   SAEK_RAID7  decision after a 7 on a raid: what to collect (see saek_action_* below);
 *   SAEK_OVER   terminal.
 * Rule choices where the text is silent are in docs/saekonungr.md.
 */
#ifndef HNEFI_ENGINE_GAMES_SAEK_H
#define HNEFI_ENGINE_GAMES_SAEK_H

#include <stdint.h>

#include "engine/game.h"

enum {
    SAEK_MAX_PLAYERS = 6,
    SAEK_SHIPS = 8,
    SAEK_LONGSHIP = 8, /* location index of the longship, after the eight ships */
};

typedef enum saek_phase {
    SAEK_START,
    SAEK_ROLL,
    SAEK_VDICE,
    SAEK_VROLL,
    SAEK_RAID,
    SAEK_RAID7,
    SAEK_OVER,
} saek_phase;

/* Raid-7 actions: collect two board coins from locations i <= j (0-7 ships, 8 longship):
 * SAEK_ACT_PAIR + i * 9 + j; collect the only board coin at location l: SAEK_ACT_ONE + l;
 * collect nothing (empty board): SAEK_ACT_NONE; one coin from opponent q: SAEK_ACT_OPP + q. */
enum {
    SAEK_ACT_PAIR = 0,
    SAEK_ACT_NONE = 99,
    SAEK_ACT_ONE = 100,
    SAEK_ACT_OPP = 200,
};

typedef struct saek_state {
    int16_t coins[SAEK_MAX_PLAYERS]; /* treasuries */
    int16_t longship;                /* coins on the longship */
    uint8_t ships;                   /* bit i: ship saek_ship_number[i] holds a coin */
    uint8_t nplayers;                /* 2..6 */
    uint8_t alive;                   /* bit p: player p is still in the game */
    uint8_t to_move;                 /* the player whose turn it is */
    uint8_t phase;                   /* a saek_phase */
    uint8_t rolls;                   /* raid rolls still owed in this raid */
    uint8_t dice;                    /* Viking dice chosen for this raid */
    uint8_t first_out;               /* player expelled first, or 255 */
    uint8_t opt_vikingdice;          /* 1: the optional Viking dice are in play */
    uint8_t opt_firstout;            /* 1: the game ends at the first expulsion */
    uint8_t opt_start;               /* 255: roll-off; else this player starts */
    uint8_t pad;
    int32_t opt_maxturns; /* turn cap (a draw among those still in); 0 = none */
    int32_t turns;        /* trading turns begun so far */
} saek_state;

/* The eight ship numbers, in location order. */
extern const int saek_ship_number[SAEK_SHIPS];

/* Location of the ship numbered `sum` (2..12), or -1 for 2, 7 and 12. */
extern const int saek_ship_index[13];

/* Probability of each 2D6 sum, in 36ths. */
extern const int saek_2d6_ways[13];

/* The game table. */
extern const game_def saek_game;

/* Sets up a game with the standard treasury for the player count and the given options. */
int saek_init(saek_state *s, int players, const char *options, char *err, size_t errlen);

/* The k-th raid-7 collection of the mover, computed without listing (equals legal()[k]). */
int saek_raid7_action(const saek_state *s, int k);

/* Number of coins on the ships. */
int saek_board_ship_coins(const saek_state *s);

#endif
