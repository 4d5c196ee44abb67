/*
 * Eketorp's text forms and hand-written policy, the game_def entries that are not rules:
 * a picture of the state, the one-line STATE format (space-separated name=v,v,... words, one per
 * field of ekt_state, in row-major order), its reader (which checks that pieces and cards are
 * conserved), action names, and the heuristic. Internal to engine/games/eketorp*.c.
 */
#ifndef HNEFI_ENGINE_GAMES_EKETORP_TEXT_H
#define HNEFI_ENGINE_GAMES_EKETORP_TEXT_H

#include <stddef.h>

#include "engine/games/eketorp.h"

/* Checks a state read from text can go on from its phase; 0, or -1 with a message. */
int ekt_phase_valid(const ekt_state *s, char *err, size_t errlen);

/* Writes a picture of the state. */
int ekt_render(const void *st, char *buf, size_t n);

/* Writes the state as one line. */
int ekt_format(const void *st, char *buf, size_t n);

/* Reads a state line; 0, or -1 with a message naming the bad word. */
int ekt_parse(void *st, const char *text, char *err, size_t errlen);

/* Names an action. */
int ekt_action_text(const void *st, int player, int a, char *buf, size_t n);

/* The hand-written policy (see docs/eketorp.md). */
int ekt_heuristic(const void *st, int player, const int *acts, int n, game_rng *rng);

#endif
