/* Playing a move on a position: the piece, the captures, the end by the board rules. */
#include "engine/make.h"

#include "engine/rules.h"

/*
 * Plays the legal move m from src into dst (dst may not alias src): moves the piece, removes the
 * captured pieces, switches the side, updates the key, and decides the end by the board rules.
 * Returns the captured squares.
 */
bb_t make_move(struct position *dst, const struct position *src, move_t m) {
    int from = move_from(m), to = move_to(m), mover = src->side;
    bb_t fromto = bb_sq(from) | bb_sq(to);
    /* the child is written field by field from the parent's values, not copied whole and then
       read back (a whole-struct copy followed by reads of its fields stalls on the stores) */
    bb_t att = src->att, def = src->def, king = src->king;
    int king_sq = src->king_sq;
    enum piece kind;
    if (mover == SIDE_ATTACKERS) {
        att ^= fromto;
        kind = PIECE_ATTACKER;
    } else if (from == king_sq) {
        king = bb_sq(to);
        king_sq = to;
        kind = PIECE_KING;
    } else {
        def ^= fromto;
        kind = PIECE_DEFENDER;
    }
    dst->att = att;
    dst->def = def;
    dst->king = king;
    dst->key = src->key ^ zobrist_piece[kind][from] ^ zobrist_piece[kind][to] ^ zobrist_side;
    dst->v = src->v;
    dst->king_sq = (bb_square_t)king_sq;
    dst->side = (uint8_t)mover;
    bb_t caught = rules_captures(dst, to, mover);
    if (bb_any(caught)) {
        enum piece victim = mover == SIDE_ATTACKERS ? PIECE_DEFENDER : PIECE_ATTACKER;
        bb_t c = caught;
        while (bb_any(c)) dst->key ^= zobrist_piece[victim][bb_pop(&c)];
        if (mover == SIDE_ATTACKERS)
            dst->def &= ~caught;
        else
            dst->att &= ~caught;
    }
    dst->side = (uint8_t)!mover;
    rules_decide(dst, to, mover);
    return caught;
}
