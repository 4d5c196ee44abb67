/*
 * A tafl position: the pieces as bitboards, the side to move, the Zobrist key, and the result of
 * the move that led here.
 *
 * Invariants: att, def and king are disjoint subsets of the variant's board; spec (commanders among
 * the attackers, knights among the defenders; empty in most variants) is a subset of att | def;
 * pos_berserker() is the square of the piece that must move again in a berserk turn (the side to
 * move has just captured with it), or -1; king has exactly one
 * square (king_sq), also when the king has been captured (the result then says so); key is the
 * Zobrist hash of (placement, side to move, berserker) and is updated incrementally by make_move
 * (engine/make.h). `result` and `reason` record an end decided by the board rules (escape, king
 * capture, immobile king, encirclement, exit fort); the end by repetition or by having no legal
 * move needs the game's history and move generation and is decided in engine/tafl.h.
 *
 * Positions are copied on make (copy-make): make_move writes the child into a separate struct and
 * leaves the parent untouched, so there is nothing to undo. This header knows no rules: the
 * captures and ends are decided in engine/rules.h, which reads positions.
 */
#ifndef HNEFI_ENGINE_POSITION_H
#define HNEFI_ENGINE_POSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/bitboard.h"
#include "engine/types.h"
#include "engine/variant.h"

struct position {
    bb_t att;  /* attacker men */
    bb_t def;  /* defender men */
    bb_t king; /* the king's square */
    bb_t spec; /* commanders (attackers) and knights (defenders), also in att or def */
    uint64_t key;
    const struct variant *v;
    bb_square_t king_sq;
    uint8_t side;   /* enum side: who moves next */
    uint8_t result; /* enum result decided by the board rules, RESULT_NONE while the game goes on */
    uint8_t reason; /* enum end_reason */
    uint16_t berserk; /* the square of the piece that must move again plus 1; 0: none (so a
                         zeroed position has none) */
};

/* Returns the square of the piece that must move again in a berserk turn, or -1. */
static inline int pos_berserker(const struct position *p) {
    return (int)p->berserk - 1;
}

/* Sets the square of the piece that must move again (-1: none). */
static inline void pos_set_berserker(struct position *p, int sq) {
    p->berserk = (uint16_t)(sq + 1);
}

/* Zobrist keys: one per piece kind (enum piece) and square, one for the side to move, and per
   square one added for a commander or knight (beside its side's man key) and one for the
   berserker. */
extern uint64_t zobrist_piece[4][BB_MAX_SQUARES];
extern uint64_t zobrist_side;
extern uint64_t zobrist_special[BB_MAX_SQUARES];
extern uint64_t zobrist_berserker[BB_MAX_SQUARES];

/* Returns every occupied square. */
static inline bb_t pos_occupied(const struct position *p) {
    return p->att | p->def | p->king;
}

/* Returns the pieces of side s (for the defenders: men and king). */
static inline bb_t pos_side_pieces(const struct position *p, int s) {
    return s == SIDE_ATTACKERS ? p->att : p->def | p->king;
}

/* Returns the kind of piece on sq. */
static inline enum piece pos_piece_at(const struct position *p, int sq) {
    if (bb_has(p->att, sq)) return PIECE_ATTACKER;
    if (bb_has(p->def, sq)) return PIECE_DEFENDER;
    if (bb_has(p->king, sq)) return PIECE_KING;
    return PIECE_NONE;
}

/* Computes the Zobrist key of p from scratch. */
uint64_t pos_compute_key(const struct position *p);

/* Sets p to the start position of variant v. */
void pos_init_start(struct position *p, const struct variant *v);

/*
 * Plays m from src into dst with its captures already known (a game played before, as records
 * keep it): the piece moves, the captured men go, the side switches and the key follows. No rule
 * is asked, so the end is not decided (result and reason are cleared); dst may alias src. Only
 * for variants without special pieces (v->special_pieces false): where jumps, commanders and
 * berserk turns play, only the rules know who moves next, and make_move replays the move.
 */
void pos_play_known(struct position *dst, const struct position *src, move_t m, bb_t captures);

/* Checks the invariants above; returns false with a reason in err. */
bool pos_valid(const struct position *p, char *err, size_t errlen);

#endif
