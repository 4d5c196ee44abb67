/* Playing a move on a position: the piece, the captures, the end by the board rules. */
#include "engine/make.h"

#include "engine/movegen.h"
#include "engine/rules.h"

/* make_move for the variants with special pieces (below). */
static bb_t make_special(struct position *dst, const struct position *src, move_t m,
                         bool turn_check);

/* Tells whether the piece on sq has a move that captures (a man, or the king), in p where its
   side has just moved (side not yet switched back). */
static bool can_capture(const struct position *p, int sq, int mover) {
    struct position q = *p, r;
    q.side = (uint8_t)mover;
    q.berserk = 0;
    for (bb_t t = movegen_targets(&q, sq); bb_any(t);) {
        move_t m = move_make(sq, bb_pop(&t));
        if (bb_any(make_special(&r, &q, m, false)) || r.reason == END_KING_CAPTURED) return true;
    }
    return false;
}

/* Removes the enemy men of `men` (side `mover` took them) from p, their commander or knight
   marks too; returns key with their Zobrist terms taken out. */
static uint64_t take(struct position *p, bb_t men, int mover, uint64_t key) {
    enum piece victim = mover == SIDE_ATTACKERS ? PIECE_DEFENDER : PIECE_ATTACKER;
    for (bb_t c = men; bb_any(c);) {
        int sq = bb_pop(&c);
        key ^= zobrist_piece[victim][sq];
        if (bb_has(p->spec, sq)) key ^= zobrist_special[sq];
    }
    if (mover == SIDE_ATTACKERS)
        p->def &= ~men;
    else
        p->att &= ~men;
    p->spec &= ~men;
    return key;
}

/*
 * make_move for the variants with special pieces: commanders and knights move with their mark,
 * jumps (a capturing jump takes the man jumped), and a berserk turn goes on after a capture
 * (turn_check: decide that; false when asking whether a move would capture at all).
 */
static bb_t make_special(struct position *dst, const struct position *src, move_t m,
                         bool turn_check) {
    const struct variant *v = src->v;
    const struct bb_geom *g = &v->g;
    int from = move_from(m), to = move_to(m), mover = src->side;
    bb_t fromto = bb_sq(from) | bb_sq(to);
    *dst = *src;
    uint64_t key = src->key ^ zobrist_side;
    if (pos_berserker(src) >= 0) key ^= zobrist_berserker[pos_berserker(src)];
    dst->berserk = 0;
    enum piece kind;
    if (mover == SIDE_ATTACKERS) {
        dst->att ^= fromto;
        kind = PIECE_ATTACKER;
    } else if (from == src->king_sq) {
        dst->king = bb_sq(to);
        dst->king_sq = (bb_square_t)to;
        kind = PIECE_KING;
    } else {
        dst->def ^= fromto;
        kind = PIECE_DEFENDER;
    }
    key ^= zobrist_piece[kind][from] ^ zobrist_piece[kind][to];
    if (bb_has(src->spec, from)) {
        dst->spec ^= fromto;
        key ^= zobrist_special[from] ^ zobrist_special[to];
    }
    /* a jump: the landing square two steps on, over an occupied square */
    bb_t jumped = BB_EMPTY;
    for (int d = 0; d < DIR_NB; d++) {
        int mid = g->nb[from][d];
        if (mid >= 0 && g->nb[mid][d] == to && bb_has(pos_occupied(src), mid)) {
            if (movegen_jump_mode(src, from) == JUMP_CAPTURE) jumped = bb_sq(mid);
            break;
        }
    }
    key = take(dst, jumped, mover, key); /* before the custodial captures are judged */
    dst->side = (uint8_t)mover;
    bb_t caught = rules_captures(dst, to, mover);
    key = take(dst, caught, mover, key);
    caught |= jumped;
    dst->side = (uint8_t)!mover;
    dst->key = key;
    rules_decide(dst, to, mover);
    /* a berserk turn: the piece that captured moves again, if it can capture again (or, under
       BERSERK_MOVE, move at all) */
    if (turn_check && v->berserk != BERSERK_NONE && bb_any(caught) && dst->result == RESULT_NONE &&
        (v->berserk == BERSERK_MOVE ? bb_any(movegen_targets(dst, to))
                                    : can_capture(dst, to, mover))) {
        dst->side = (uint8_t)mover;
        pos_set_berserker(dst, to);
        dst->key ^= zobrist_side ^ zobrist_berserker[to];
    }
    return caught;
}

/*
 * Plays the legal move m from src into dst (dst may not alias src): moves the piece, removes the
 * captured pieces, switches the side, updates the key, and decides the end by the board rules.
 * Returns the captured squares.
 */
bb_t make_move(struct position *dst, const struct position *src, move_t m) {
    if (src->v->special_pieces) return make_special(dst, src, m, true);
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
    dst->spec = BB_EMPTY;
    dst->berserk = 0;
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
