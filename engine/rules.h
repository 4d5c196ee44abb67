/*
 * The capture and game-end rules of tafl (docs/rules.md), decided on bitboards.
 *
 * Every function reads the position as it stands after a move's piece has landed on `to` (and,
 * for the end checks, after its captures were removed). Custodial captures look only at the four
 * neighbours of `to`; the shieldwall, exit-fort and encirclement tests run only when their cheap
 * pre-checks pass.
 */
#ifndef HNEFI_ENGINE_RULES_H
#define HNEFI_ENGINE_RULES_H

#include "engine/position.h"

/* Returns the men captured by the move of side `mover` that landed on to. */
bb_t rules_captures(const struct position *p, int to, int mover);

/* Tells whether the attacker that landed on to captures the king (rules.md §4.2). */
bool rules_king_captured(const struct position *p, int to);

/*
 * Sorts the empty squares beside the king where an attacker may land (attackers to move) by what
 * arriving there does. *captures gets the squares where any attacker that arrives captures the
 * king. The result holds the other squares where an arriving attacker might still win at once
 * (immobile king, encirclement), which only making the move can tell. On the squares in neither
 * set no attacker move wins at once.
 */
bb_t rules_king_spots(const struct position *p, bb_t *captures);

/* Tells whether the seed-Tablut immobile-king rule (§4.6) gives the attackers the win. */
bool rules_immobile_king(const struct position *p);

/* Tells whether the attackers enclose the king and every defender (§4.5). */
bool rules_encircled(const struct position *p);

/* Tells whether the king stands in an unbreakable exit fort on the edge (§4.4). */
bool rules_exit_fort(const struct position *p);

/* Counts the escape squares the king could reach in one move (Tablut's raichi/tuichi). */
int rules_escape_routes(const struct position *p);

/* Tells whether the attackers, if they moved now, could capture the king ("watch your king"). */
bool rules_king_threatened(const struct position *p);

/*
 * Decides the end of the game by the board rules after side `mover` moved to `to` (checks 1-4 of
 * §4.10); sets p->result and p->reason.
 */
void rules_decide(struct position *p, int to, int mover);

#endif
