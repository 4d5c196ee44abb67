/*
 * Eketorp (Dirk Henn), the Viking stronghold-building game for 3 to 6 players, as a game_def.
 *
 * ekt_state holds the whole game. Vikings: every piece of player p is in exactly one place:
 * home[p], on field f (field[p][f], f = a..g), besieging side s of player q's stronghold
 * (siege[p][q][s]), or on hospital space h (hosp[p][h], h = 0 "Diff 5+" .. 4 "Dismissal"); the
 * sum is pieces[p] at all times. Cards: hand[p][v] and pile[p][v] count cards of value v in
 * p's hand and face down on p's sheet; deck[v] and aside[v] the draw deck and the cards put
 * aside by amulet exchanges; the 54 cards are always all somewhere. known[p][v] <= hand[p][v]
 * counts the hand cards every player has seen (picked up from the pile). Tiles: ftile[f][m]
 * counts tiles of material m (1 foliage, 2 wood, 3 mud, 4 stone; worth m points) on field f;
 * place[p][k][level] is the material at that level of building place k (0 = empty, heights
 * height[p][k] <= 3, sides A/B/C hold places 0-1, 2-3, 4-5); extra[p][m] counts tiles beyond
 * the third level; gain[p][m] the tiles won this week and not yet built; supply[m] the stack.
 * Pending secret orders live in plan_field/plan_siege until all are written.
 *
 * The phase says what happens next (and the node kind):
 *   EKT_DRAW     chance    one card for draw_player (outcome = value, weighted by the deck);
 *   EKT_REDEAL   decision  a player without 4, 5 or 6 may return his four cards (1) or not (0);
 *   EKT_ITEMS    chance    the starting player turns an item card (outcome = card index);
 *   EKT_PLAN     simult.   each player sends one more Viking (see ekt_plan actions) or stops;
 *   EKT_CHOOSE   decision  the chooser names one of his fights (see ekt_fight actions);
 *   EKT_EXCHANGE decision  a fighter may pay amulets to exchange his hand (1) or not (0);
 *   EKT_CARDS    simult.   both fighters play a card (action = its value);
 *   EKT_BUILD    decision  the builder puts his best unbuilt tile on place k (action k);
 *   EKT_OVER     terminal.
 * Card values, item cards and hospital spaces come from ekt_data (compiled-in defaults equal to
 * engine/games/data/eketorp-rules.txt; ekt_data_parse loads an edited copy). Rule choices where
 * the text is silent are in docs/eketorp.md.
 */
#ifndef HNEFI_ENGINE_GAMES_EKETORP_H
#define HNEFI_ENGINE_GAMES_EKETORP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

enum {
    EKT_MAX_PLAYERS = 6,
    EKT_FIELDS = 7,
    EKT_PLACES = 6,
    EKT_LEVELS = 3,
    EKT_SIDES = 3,
    EKT_HOSPITAL = 5, /* spaces; the last is Dismissal */
    EKT_VALUES = 7,   /* card values 0..6 (index = value) */
    EKT_MATERIALS = 5,
    EKT_ITEM_CARDS = 12,
    EKT_ITEM_TILES = 16, /* most tiles on one item card */
};

/* Actions of EKT_PLAN: stop (the rest stay home), a field, or a siege. */
enum {
    EKT_PLAN_STOP = 0,
    EKT_PLAN_FIELD = 1, /* + field 0..6 */
    EKT_PLAN_SIEGE = 8, /* + q * 3 + side */
};

/* Actions of EKT_CHOOSE: the kind of fight times 1000 plus its parameters. */
enum {
    EKT_FIGHT_FIELD = 0,     /* + field * 10 + opponent */
    EKT_FIGHT_RIVALS = 1000, /* + owner * 100 + side * 10 + rival besieger */
    EKT_FIGHT_SIEGE = 2000,  /* + owner * 10 + side */
    EKT_FIGHT_SALLY = 3000,  /* + side * 10 + besieger (the owner attacks) */
};

typedef enum ekt_phase {
    EKT_DRAW,
    EKT_REDEAL,
    EKT_ITEMS,
    EKT_PLAN,
    EKT_CHOOSE,
    EKT_EXCHANGE,
    EKT_CARDS,
    EKT_BUILD,
    EKT_OVER,
} ekt_phase;

/* The editable data: card values, item cards, hospital spaces. */
typedef struct ekt_data {
    uint8_t cards[EKT_VALUES];        /* copies of each value in the pack */
    int item_count;                   /* item cards */
    uint8_t item_len[EKT_ITEM_CARDS]; /* tiles on each */
    uint8_t item_field[EKT_ITEM_CARDS][EKT_ITEM_TILES];
    uint8_t item_material[EKT_ITEM_CARDS][EKT_ITEM_TILES];
    uint8_t hospital_min[EKT_HOSPITAL - 1]; /* least difference sending to spaces 0..3 */
    uint8_t supply[EKT_MATERIALS];          /* tiles of each material in the box */
} ekt_data;

typedef struct ekt_state {
    uint8_t np, week, weeks, start, phase;
    uint8_t opt_sally, opt_rotten;
    uint8_t pieces[EKT_MAX_PLAYERS];
    uint8_t home[EKT_MAX_PLAYERS];
    uint8_t field[EKT_MAX_PLAYERS][EKT_FIELDS];
    uint8_t siege[EKT_MAX_PLAYERS][EKT_MAX_PLAYERS][EKT_SIDES];
    uint8_t hosp[EKT_MAX_PLAYERS][EKT_HOSPITAL];
    uint8_t siege_done[EKT_MAX_PLAYERS][EKT_SIDES]; /* section's siege fought this week */
    uint8_t hand[EKT_MAX_PLAYERS][EKT_VALUES];
    uint8_t known[EKT_MAX_PLAYERS][EKT_VALUES];
    uint8_t pile[EKT_MAX_PLAYERS][EKT_VALUES];
    uint8_t deck[EKT_VALUES], aside[EKT_VALUES];
    uint8_t amulets[EKT_MAX_PLAYERS];
    uint8_t ftile[EKT_FIELDS][EKT_MATERIALS];
    uint8_t place[EKT_MAX_PLAYERS][EKT_PLACES][EKT_LEVELS];
    uint8_t height[EKT_MAX_PLAYERS][EKT_PLACES];
    uint8_t extra[EKT_MAX_PLAYERS][EKT_MATERIALS];
    uint8_t gain[EKT_MAX_PLAYERS][EKT_MATERIALS];
    uint8_t supply[EKT_MATERIALS];
    uint8_t completed[EKT_MAX_PLAYERS];
    uint16_t items_used; /* bit i: item card i already turned */
    /* secret orders being written */
    uint8_t plan_field[EKT_MAX_PLAYERS][EKT_FIELDS];
    uint8_t plan_siege[EKT_MAX_PLAYERS][EKT_MAX_PLAYERS][EKT_SIDES];
    uint8_t planned[EKT_MAX_PLAYERS], plan_done[EKT_MAX_PLAYERS];
    /* card draws */
    uint8_t draw_player, draw_left, draw_then; /* draw_then: phase after the draws */
    uint8_t setup_next;                        /* next player to deal to / ask about re-dealing */
    /* the fight under way */
    uint8_t chooser;    /* player whose turn it is to name a fight */
    uint8_t fighter[2]; /* [0] the one who named it, [1] the opponent (owner for a siege) */
    uint16_t fight;     /* the EKT_CHOOSE action being fought */
    uint8_t exch_step;  /* 0: fighter[0] may exchange, 1: fighter[1] may */
    uint8_t build_player;
    uint8_t build_count; /* players asked so far in the build phase */
    uint8_t redealt[EKT_MAX_PLAYERS];
} ekt_state;

/* The defaults, identical to engine/games/data/eketorp-rules.txt. */
extern const char ekt_default_data_text[];

/* The data in force (the defaults until ekt_data_set). */
const ekt_data *ekt_data_current(void);

/* Reads data text (the format of eketorp-rules.txt); 0, or -1 with a message naming the line. */
int ekt_data_parse(const char *text, ekt_data *out, char *err, size_t errlen);

/* Makes `d` the data for games set up from now on (call before starting threads). */
void ekt_data_set(const ekt_data *d);

/* Sets up a game; options: sally=0|1, rotten=0|1|2, weeks=N. */
int ekt_init(ekt_state *s, int players, const char *options, char *err, size_t errlen);

/* Points of player p now: stronghold tiles, amulets, and 5 for completing it. */
int ekt_score(const ekt_state *s, int p);

/* Hospital space for a loser when the cards differ by diff (protected: one step less). */
int ekt_hospital_space(int diff, int protected_defender);

/* The game table. */
extern const game_def ekt_game;

#endif
