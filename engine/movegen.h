/*
 * Legal move generation for tafl positions.
 *
 * Men and the king slide orthogonally over empty squares; the variant's masks say which empty
 * squares stop a slide (men_block, king_block: the throne where it may not be crossed) and where
 * a piece may not stop (men_forbidden, king_forbidden). The count-only path counts the moves of a
 * whole side with one occluded fill per direction: rays of different pieces in one direction are
 * disjoint, so the popcount of the union is the move count. Moves made illegal by a repetition
 * rule depend on the game's history and are filtered in engine/tafl.h.
 *
 * Two rules of some OpenTafl variants bend this: fortress squares (variant.forts) are in every
 * block and forbidden mask, except for a piece standing on one, which slides through and stops on
 * them as on any square (movegen_unfort); and the king may have a speed limit (king_speed), the
 * most squares he slides in one move (movegen_king_limit).
 *
 * Berserk (OpenTafl) adds jumps: the king, commanders and knights may jump an adjacent enemy man
 * (not a king, commander or knight) onto the empty square beyond, each by its jump mode; a jump
 * is written as a move from the start to the landing square two squares on, which no slide can
 * be (the square between is occupied). While a berserk turn goes on (position.berserker), only
 * the berserker moves. These variants take the piece-by-piece paths (variant.special_pieces).
 */
#ifndef HNEFI_ENGINE_MOVEGEN_H
#define HNEFI_ENGINE_MOVEGEN_H

#include "engine/position.h"

/* Returns the masks of a piece standing on a fortress square: the empty fortress squares added
   back to its slide (pro) and landing (land) masks. */
static inline bb_t movegen_unfort(const struct variant *v, bb_t mask, bb_t empty) {
    return mask | (empty & v->forts);
}

/* Returns the king's targets t from sq cut to his speed limit, if he has one. */
static inline bb_t movegen_king_limit(const struct variant *v, int sq, bb_t t) {
    return v->king_speed ? t & v->king_near[sq] : t;
}

/* Returns the jump mode of the piece on sq: the king's, a commander's, a knight's, or none. */
enum jump_mode movegen_jump_mode(const struct position *p, int sq);

/* movegen_king_targets where fortress squares, the king's speed or jumps apply (out of line). */
bb_t movegen_king_targets_special(const struct position *p);

/* Returns the squares the king of p may move to (whoever is to move). */
static inline bb_t movegen_king_targets(const struct position *p) {
    const struct variant *v = p->v;
    if (v->special_moves) return movegen_king_targets_special(p);
    bb_t empty = v->g.board & ~pos_occupied(p);
    return bb_slides(&v->g, p->king_sq, empty & ~v->king_block) & empty & ~v->king_forbidden;
}

/* Writes the moves of the side to move into out (room for MAX_MOVES); returns their number. */
int movegen_list(const struct position *p, move_t *out);

/* Counts the moves of the side to move without listing them. */
int movegen_count(const struct position *p);

/* Counts the moves of side s (whoever is to move). */
int movegen_count_side(const struct position *p, int s);

/* Tells whether the side to move has a legal move (repetition rules aside): a man or the king
   beside a square it may stop on answers at once; otherwise the moves are counted. */
bool movegen_has_move(const struct position *p);

/* Returns every square some piece of gen reaches in one slide through pro, landing on land. */
bb_t movegen_slide_set(const struct bb_geom *g, bb_t gen, bb_t pro, bb_t land);

/* Returns the squares the piece on sq may move to (empty if there is no piece). */
bb_t movegen_targets(const struct position *p, int sq);

/* Tells whether the move m is legal for the side to move (ignoring repetition rules). */
bool movegen_is_legal(const struct position *p, move_t m);

#endif
