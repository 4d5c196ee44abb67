/*
 * Legal move generation for tafl positions.
 *
 * Men and the king slide orthogonally over empty squares; the variant's masks say which empty
 * squares stop a slide (men_block, king_block: the throne where it may not be crossed) and where
 * a piece may not stop (men_forbidden, king_forbidden). The count-only path counts the moves of a
 * whole side with one occluded fill per direction: rays of different pieces in one direction are
 * disjoint, so the popcount of the union is the move count. Moves made illegal by a repetition
 * rule depend on the game's history and are filtered in engine/tafl.h.
 */
#ifndef HNEFI_ENGINE_MOVEGEN_H
#define HNEFI_ENGINE_MOVEGEN_H

#include "engine/position.h"

/* Writes the moves of the side to move into out (room for MAX_MOVES); returns their number. */
int movegen_list(const struct position *p, move_t *out);

/* Counts the moves of the side to move without listing them. */
int movegen_count(const struct position *p);

/* Counts the moves of side s (whoever is to move). */
int movegen_count_side(const struct position *p, int s);

/* Returns every square some piece of gen reaches in one slide through pro, landing on land. */
bb_t movegen_slide_set(const struct bb_geom *g, bb_t gen, bb_t pro, bb_t land);

/* Returns the squares the piece on sq may move to (empty if there is no piece). */
bb_t movegen_targets(const struct position *p, int sq);

/* Tells whether the move m is legal for the side to move (ignoring repetition rules). */
bool movegen_is_legal(const struct position *p, move_t m);

#endif
