/*
 * Playing a move on a tafl position (copy-make): the moved piece, the men it captures and the
 * end of the game by the board rules, with the Zobrist key kept in step.
 *
 * This sits above engine/rules.h (which decides captures and ends on a position) and
 * engine/position.h (which only holds the pieces), so neither of those needs the other's
 * caller. The ends that need history (repetition) or move generation (no legal move) are
 * decided in engine/tafl.h.
 */
#ifndef HNEFI_ENGINE_MAKE_H
#define HNEFI_ENGINE_MAKE_H

#include "engine/position.h"

/*
 * Plays the legal move m from src into dst (dst may not alias src): moves the piece, removes the
 * captured pieces, switches the side, updates the key, and decides the end by the board rules.
 * Returns the captured squares.
 */
bb_t make_move(struct position *dst, const struct position *src, move_t m);

#endif
