/*
 * A tafl game with its history (struct tafl_game): the positions played so far, the moves with
 * their captures, and the game's complete status, including the ends that need history (repetition,
 * rules.md §4.8) or move generation (no legal move, §4.9).
 *
 * pos[0] is the start, pos[n] the current position; moves[i] and captures[i] lead from pos[i] to
 * pos[i+1]. result/reason give the status of pos[n] after all six checks of §4.10. A struct
 * tafl_game is large (it keeps every position for undo and repetition): allocate it with tafl_new.
 */
#ifndef HNEFI_ENGINE_TAFL_H
#define HNEFI_ENGINE_TAFL_H

#include "engine/position.h"

struct tafl_game {
    const struct variant *v;
    int n;
    struct position pos[MAX_GAME_PLIES + 1];
    move_t moves[MAX_GAME_PLIES];
    bb_t captures[MAX_GAME_PLIES];
    uint64_t keys[MAX_GAME_PLIES + 1]; /* pos[i].key, in a row for the repetition rules */
    uint8_t result, reason;            /* enum result, enum end_reason of pos[n] */
};

/* Allocates a game at the start position of v (NULL if out of memory). */
struct tafl_game *tafl_new(const struct variant *v);

/* Frees a game. */
void tafl_free(struct tafl_game *t);

/* Restarts the game from position p. */
void tafl_reset(struct tafl_game *t, const struct position *p);

/* Returns the current position. */
static inline const struct position *tafl_pos(const struct tafl_game *t) {
    return &t->pos[t->n];
}

/* Writes the legal moves of the current position (repetition bans applied); returns the count. */
int tafl_legal_moves(const struct tafl_game *t, move_t *out);

/* Tells whether m is legal now; if not, a reason goes to err. */
bool tafl_move_legal(const struct tafl_game *t, move_t m, char *err, size_t errlen);

/* Plays the legal move m and decides the new status; returns false if the game is full. */
bool tafl_play(struct tafl_game *t, move_t m);

/* Reads, checks and plays move text; on failure the game is unchanged and err says why. */
bool tafl_play_text(struct tafl_game *t, const char *text, char *err, size_t errlen);

/* Takes back the last move; returns false at the start. */
bool tafl_undo(struct tafl_game *t);

/* Counts the earlier positions (from pos[0]) equal to pos[i], counting pos[i] itself. */
int tafl_occurrences(const struct tafl_game *t, int i);

/*
 * The repetition rules read only the keys of the positions since the last capture (no position
 * recurs across one): keys[0..len), oldest first, the last being the key of p, the current
 * position. Any holder of a game's history can ask these (engine/tafl_def.c, the tafl games of
 * the generic interface, does); a struct tafl_game asks them for its own window.
 */

/* Writes the legal moves of p (repetition bans applied); returns the count. */
int tafl_window_moves(const struct position *p, const uint64_t *keys, int len, move_t *out);

/* Decides the complete status of p (§4.10: board rules, repetition, no legal move). */
void tafl_window_status(const struct position *p, const uint64_t *keys, int len, uint8_t *result,
                        uint8_t *reason);

/* Returns a short English text for a result and reason ("defenders win: king escaped"). */
const char *tafl_status_text(int result, int reason, char *buf, size_t len);

#endif
