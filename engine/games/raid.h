/*
 * Viking Raid, one abstract raid day for 3 to 6 players, as a game_def (engine/game.h).
 *
 * The table is replaced by distances: the settlements stand on a ring `spacing` inches apart
 * (the distance between settlements i and j is spacing times their ring distance) and the tomb
 * stands `tomb` inches from every settlement. Each player's figures are grouped: warriors at home
 * (home), one war party away (party) with a target and the inches still to go, the leader and
 * the son of leader (always at home), villagers and the herd. All warriors of a player carry the
 * same kit from raid_day_kit (chosen when buying); leader and son carry RAID_DAY_LEADER_KIT.
 *
 * raid_state holds everything: options, season length, hour, who plays, the phase, and the
 * context of a combat in progress (attacker, defender, long-move bonus, archer volleys left).
 * Invariants: coins >= 0; herd food >= villagers + warriors (home + party) after every step
 * (raid_settle is applied after each loss); at most one party per player; at most one wild beast.
 *
 * Phases (node kind):
 *   SEASON chance (D6: 10 or 12 hours), FIRST chance (who starts), WEALTH chance (two Diamonds,
 *   per player), BUY decision (per player: kit and number of warriors),
 *   then each hour, each player in turn: DIAMOND chance (income; a Joker lets the player send the
 *   plague: PLAGUE decision, PLAGUE_ROLL chance D10), CLUB chance (movement; a Joker brings a wild
 *   beast: BEAST_KIND chance D6, BEAST_PLACE decision), ACTION decision, then the party moves and
 *   on contact: VOLLEY chances (archers), FIGHT chances (one whole melee each, exact odds), LOOT
 *   chance (two Diamonds on a first capture), TOMB and TOMB_COINS chances (5D6), HUNT chances;
 *   after the turn BEAST_ATTACK chance while a beast is on the table; OVER terminal.
 * Every chance outcome's probability comes from the exact odds of raid_combat.h.
 * The score (points) is the war chest; the winner has the largest (ties share).
 * All abstractions and their parameters are listed in docs/viking-raid.md.
 */
#ifndef HNEFI_ENGINE_GAMES_RAID_H
#define HNEFI_ENGINE_GAMES_RAID_H

#include <stdint.h>

#include "engine/game.h"
#include "engine/games/raid_econ.h"
#include "engine/games/raid_kit.h"

enum {
    RAID_MAX_PLAYERS = 6,
    RAID_DAY_KITS = 4,       /* warrior kits on the menu */
    RAID_DAY_LEADER_KIT = 4, /* index of the leader's kit in the odds tables */
    RAID_BUY_MAX_N = 31,     /* most warriors in the starting purchase */
};

typedef enum raid_phase {
    RAID_PH_SEASON,
    RAID_PH_FIRST,
    RAID_PH_WEALTH,
    RAID_PH_BUY,
    RAID_PH_DIAMOND,
    RAID_PH_PLAGUE,
    RAID_PH_PLAGUE_ROLL,
    RAID_PH_CLUB,
    RAID_PH_BEAST_KIND,
    RAID_PH_BEAST_PLACE,
    RAID_PH_ACTION,
    RAID_PH_VOLLEY,
    RAID_PH_FIGHT,
    RAID_PH_LOOT,
    RAID_PH_TOMB,
    RAID_PH_TOMB_COINS,
    RAID_PH_HUNT,
    RAID_PH_BEAST_ATTACK,
    RAID_PH_OVER,
} raid_phase;

/* Party targets besides a settlement index. */
enum { RAID_TGT_NONE = -1, RAID_TGT_HOME = -2, RAID_TGT_TOMB = -3, RAID_TGT_BEAST = -4 };

/* Actions at ACTION: wait, raid settlement q, send one warrior to the tomb, hunt the beast,
 * recall the party, buy one warrior. At BUY: kit * 32 + warriors. At PLAGUE and BEAST_PLACE: the
 * settlement chosen. */
enum {
    RAID_ACT_WAIT = 0,
    RAID_ACT_RAID = 1, /* + q */
    RAID_ACT_TOMB = 1 + RAID_MAX_PLAYERS,
    RAID_ACT_HUNT,
    RAID_ACT_RECALL,
    RAID_ACT_BUY,
};

typedef struct raid_player {
    int16_t coins;
    int16_t captured;    /* coin value of weapons captured */
    int16_t bonus;       /* +10 per leader, +5 per son killed */
    int16_t dist;        /* inches the party still has to go */
    int8_t target;       /* party target: a settlement or RAID_TGT_* */
    uint8_t home, party; /* warriors at home and away */
    uint8_t kit;         /* warrior kit (index into raid_day_kit) */
    uint8_t villagers;
    uint8_t herd[RAID_ANIMAL_NB];
    uint8_t leader, son; /* alive */
    uint8_t looted;      /* the capture bonus of this settlement was paid */
    uint8_t out;         /* leader and son dead: settlement controlled by another */
} raid_player;

typedef struct raid_state {
    raid_player pl[RAID_MAX_PLAYERS];
    uint8_t np, phase, hour, hours, first, order, cur;
    uint8_t club, long_move, fd, volleys, volley_side, pad2;
    int8_t beast, beast_at; /* beast kind or -1, the settlement it prowls */
    uint8_t tomb_looted, opt_season, opt_berserk, pad;
    int16_t opt_spacing, opt_tomb, opt_near, opt_leave; /* inches, inches, percent, percent */
} raid_state;

/* The warrior kits on the menu, and the leader's kit at RAID_DAY_LEADER_KIT. */
extern const char *const raid_day_kit[RAID_DAY_KITS + 1];

extern const game_def raid_game;

/* Sets up a game (see game_def.init); options: season, spacing, tomb, near, leave, berserk. */
int raid_day_init(void *st, int players, const char *options, char *err, size_t errlen);

/* Returns the war chest of player p. */
int raid_day_chest(const raid_state *s, int p);

/* Returns the coins the starting purchase (kit, warriors) costs, or -1 if it is not possible. */
int raid_day_buy_cost(int kit, int warriors);

#endif
