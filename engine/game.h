/*
 * The generic game interface that every Monte-Carlo player and the playout harness use.
 *
 * A game is described by one constant game_def: a table of functions over an opaque state. A
 * state is plain data of game_def.state_size bytes with no pointers to memory outside itself, so
 * copying a state is memcpy (game_copy) and states can live on the stack, in arrays and in
 * search trees. Everything a game needs (player count, options, the position, whose turn it is,
 * hidden cards, pending secret orders) is inside the state.
 *
 * Every state is exactly one kind of node (game_node):
 *   - GAME_NODE_DECISION: one player (to_move) picks one of legal(st, player) actions;
 *   - GAME_NODE_SIMULTANEOUS: several players pick at once and in secret; legal(st, p) gives each
 *     player's actions (0 actions = that player does not act now) and apply_joint() takes one
 *     action per player (GAME_NO_ACTION for those who do not act);
 *   - GAME_NODE_CHANCE: nature picks; chance() enumerates the outcomes with their probabilities,
 *     sample_chance() draws one with a generator; apply() applies the chosen outcome;
 *   - GAME_NODE_TERMINAL: the game is over; result() gives each player's share of the win.
 *
 * An action is a small non-negative integer whose meaning the game defines (an index into its
 * own list of possible actions); legal() lists the ones allowed now, at most GAME_MAX_ACTIONS,
 * in an order that depends only on the state. action_text() names one for people.
 *
 * Hidden information: a state holds the true hidden facts (all hands, secret orders). A player's
 * information set is every state that agrees with what that player has seen; determinize(st, p,
 * rng) replaces, in place, everything p cannot know by a random sample consistent with what p
 * has seen. It is NULL for games of perfect information. Policies must call it before looking
 * ahead from a real game state, or they would cheat.
 *
 * Scores: result() is only meaningful at a terminal node and gives shares that sum to 1 (a sole
 * winner gets 1; k tied winners get 1/k each). points() gives the game's own score (coins,
 * victory points) at any node. length() counts the game's natural unit (turns, weeks).
 *
 * Games are found by name with game_find(); the built-in ones are listed in game.c. A game in
 * another file joins the list at run time with game_register(). Saekonungr, Eketorp, Viking
 * Raid and the built-in tafl variants (engine/tafl_def.h) are listed from the start.
 */
#ifndef HNEFI_ENGINE_GAME_H
#define HNEFI_ENGINE_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "engine/games/rng.h"
#include "engine/types.h"

enum {
    GAME_MAX_PLAYERS = 8,         /* no game has more seats */
    GAME_MAX_ACTIONS = MAX_MOVES, /* legal() never lists more (tafl's most moves: engine/types.h) */
    GAME_NO_ACTION = -1,          /* apply_joint() entry of a player who does not act */
    GAME_MAX_STATE = 4096,        /* no state is larger (bytes); callers may use stack buffers */
};

/* A stack buffer that holds any game's state. */
typedef union game_buffer {
    unsigned char bytes[GAME_MAX_STATE];
    uint64_t align;
} game_buffer;

typedef enum game_node {
    GAME_NODE_TERMINAL = 0,
    GAME_NODE_DECISION = 1,
    GAME_NODE_SIMULTANEOUS = 2,
    GAME_NODE_CHANCE = 3,
} game_node;

typedef struct game_def {
    const char *name;         /* short name used on the command line, e.g. "saek" */
    const char *title;        /* the game's full name */
    int min_players;          /* fewest seats */
    int max_players;          /* most seats (<= GAME_MAX_PLAYERS) */
    int default_players;      /* seats when none are asked for */
    size_t state_size;        /* bytes of one state */
    const char *options_help; /* one line per option: "name=value  meaning" */

    /* Sets up a new game; options is "key=value,key=value" or NULL. Returns 0, or -1 with a
     * message naming the bad option in err. */
    int (*init)(void *st, int players, const char *options, char *err, size_t errlen);
    /* Returns the kind of node (a game_node). */
    int (*node)(const void *st);
    /* Returns the player to act at a decision node (0-based). */
    int (*to_move)(const void *st);
    /* Writes the legal actions of `player` (or the chance outcomes at a chance node, player
     * ignored) into actions and returns their count. */
    int (*legal)(const void *st, int player, int *actions);
    /* Enumerates the chance outcomes and their probabilities; returns the count. */
    int (*chance)(const void *st, int *outcomes, double *probs);
    /* Draws one chance outcome with the probabilities chance() reports. */
    int (*sample_chance)(const void *st, game_rng *rng);
    /* Applies a decision-node action or a chance outcome. */
    void (*apply)(void *st, int action);
    /* Applies one action per player at a simultaneous node (GAME_NO_ACTION for non-actors). */
    void (*apply_joint)(void *st, const int *actions);
    /* Resamples what `player` cannot see; NULL for perfect-information games. */
    void (*determinize)(void *st, int player, game_rng *rng);
    /* Writes each player's share of the win at a terminal node (shares sum to 1). */
    void (*result)(const void *st, double *share);
    /* Writes each player's game score (coins, victory points). */
    void (*points)(const void *st, double *points);
    /* Returns how far the game has gone in its natural unit (turns, weeks). */
    int (*length)(const void *st);
    /* Returns the number of players. */
    int (*players)(const void *st);
    /* Writes a human-readable picture of the state; returns the length written. */
    int (*render)(const void *st, char *buf, size_t n);
    /* Writes the state as one line of text that parse() reads back; returns the length. */
    int (*format)(const void *st, char *buf, size_t n);
    /* Reads a state written by format() (or by a person); 0, or -1 with a message in err. */
    int (*parse)(void *st, const char *text, char *err, size_t errlen);
    /* Names an action of `player` in this state for people; returns the length written. */
    int (*action_text)(const void *st, int player, int action, char *buf, size_t n);
    /* Optional hand-written policy: returns an index into actions[0..n). */
    int (*heuristic)(const void *st, int player, const int *actions, int n, game_rng *rng);
    /* Optional fast path: plays uniformly random actions to the end, exactly as the generic
     * loop game_playout_random() would with the same generator; returns the length. */
    int (*playout)(void *st, game_rng *rng);
} game_def;

/* Returns the game with this name (or NULL). */
const game_def *game_find(const char *name);

/* Returns the i-th known game, or NULL past the end. */
const game_def *game_at(int i);

/* Adds a game to the list game_find() searches; returns 0, or -1 when the list is full. */
int game_register(const game_def *g);

/* Copies a state. */
void game_copy(const game_def *g, void *dst, const void *src);

/* Draws a chance outcome with the game's sampler, or from chance() when it has none. */
int game_sample_chance(const game_def *g, const void *st, game_rng *rng);

/* Applies one uniformly random step (chance outcome, action, or joint action). */
void game_step_random(const game_def *g, void *st, game_rng *rng);

/* Plays uniformly random steps to the end with the generic interface; returns length(). */
int game_playout_random(const game_def *g, void *st, game_rng *rng);

/* Finds "key" in an option string "k=v,k=v" and copies its value; 1 if found, else 0. */
int game_option(const char *options, const char *key, char *value, size_t n);

/* Checks that every key of an option string is in the NULL-terminated list `known`; 0, or -1
 * with a message naming the unknown key. */
int game_check_options(const char *options, const char *const *known, char *err, size_t errlen);

/*
 * Reads the next "key=value" word of a STATE text at *p into word (n bytes) and splits it: word
 * holds the key, *value points at the value. Returns 1 for a word, 0 at the end of the text, -1
 * with a message in err for a word too long or without '='.
 */
int game_state_word(const char **p, char *word, size_t n, char **value, char *err, size_t errlen);

/* Reads an integer option in [lo, hi]; returns 0 (with *out set, or left alone when absent) or
 * -1 with a message naming the option and the bad value. */
int game_option_int(const char *options, const char *key, int lo, int hi, int *out, char *err,
                    size_t errlen);

#endif
