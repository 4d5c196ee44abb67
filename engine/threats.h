/*
 * Tafl threat detection: the wins a side can make with its next move, and the squares that stop
 * them. The search asks at every node whether the side to move wins at once and whether the
 * other side threatens to; `hnefi show` prints the same answers (raichi, tuichi, "watch your
 * king").
 *
 * Escapes are exact. The attackers' wins in one are found in two tiers: the fast test looks only
 * at moves onto the squares beside the king (every king capture, and the immobile-king and
 * encirclement wins a move there completes), which is what the search calls; the complete test
 * adds any other attacker move that wins (an encirclement or immobile king closed far from the
 * king) by trying the moves, where the variant has those rules. While a berserk turn goes on only
 * the berserker's moves are tried, each made; the fast tests do not look at jumps.
 */
#ifndef HNEFI_ENGINE_THREATS_H
#define HNEFI_ENGINE_THREATS_H

#include "engine/movegen.h"
#include "engine/position.h"

/* Returns the escape squares the king reaches in one move (whoever is to move). */
static inline bb_t threat_escape_squares(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (bb_is_empty(g->lines[p->king_sq] & v->escape_mask))
        return BB_EMPTY; /* no escape square in line */
    return movegen_king_targets(p) & v->escape_mask;
}

/* Returns a king move that escapes at once, or MOVE_NONE (the defenders to move). */
static inline move_t threat_escape_in_one(const struct position *p) {
    bb_t t = threat_escape_squares(p);
    return bb_any(t) ? move_make(p->king_sq, bb_lsb(t)) : MOVE_NONE;
}

/* Counts the escape squares the king could reach in one move (Tablut's raichi/tuichi). */
static inline int threat_escape_routes(const struct position *p) {
    return bb_popcount(threat_escape_squares(p));
}

/* The king's way out: where he can go in one move, and the escapes he reaches in two. */
struct king_reach {
    bb_t pro, land;   /* the squares he slides through and may stop on */
    bb_t one;         /* the squares he can move to */
    bb_t two_escapes; /* the escape squares he reaches in two moves, not in one */
};

/* threat_king_reach where fortress squares or the king's speed apply (engine/threats.c). */
void threat_king_reach_special(const struct position *p, struct king_reach *r);

/* Fills r with the king's way out in p (whoever is to move). */
static inline void threat_king_reach(const struct position *p, struct king_reach *r) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (v->special_moves) {
        threat_king_reach_special(p, r);
        return;
    }
    bb_t empty = g->board & ~pos_occupied(p);
    r->pro = empty & ~v->king_block;
    r->land = empty & ~v->king_forbidden;
    r->one = bb_slides(g, p->king_sq, r->pro) & r->land;
    /* a slide ends on a corner only from the corner's rank or file, both on the edge */
    bb_t esc = v->escape_mask, towards = v->escape_approach;
    r->two_escapes = movegen_slide_set(g, r->one & ~esc & towards, r->pro, r->land) & esc & ~r->one;
}

/*
 * Returns the squares an attacker move must land on to take every escape of the king away
 * (attackers to move, the king able to escape): the path to his only escape square, that square
 * included, or nothing when he has two (they lie on different lines). Emptying a square or
 * capturing a defender never closes a path.
 */
static inline bb_t threat_escape_blocks(const struct position *p, bb_t escapes) {
    if (bb_several(escapes)) return BB_EMPTY;
    const struct bb_geom *g = &p->v->g;
    int k = p->king_sq, e = bb_lsb(escapes);
    for (int d = 0; d < DIR_NB; d++)
        if (bb_has(g->ray[d][k], e)) return g->ray[d][k] ^ g->ray[d][e];
    return BB_EMPTY;
}

/*
 * Returns an attacker move onto a square beside the king that wins at once (a capture of the
 * king, an immobile king, an encirclement), or MOVE_NONE (the attackers to move). The fast test.
 */
move_t threat_king_capture_in_one(const struct position *p);

/*
 * Returns an attacker move that shuts every defender in at once (an encirclement anywhere on the
 * board), or MOVE_NONE (the attackers to move). Moves that close the ring only by capturing the
 * men who keep it open are not looked for.
 */
move_t threat_encircle_in_one(const struct position *p);

/*
 * Returns any attacker move that wins at once, or MOVE_NONE (the attackers to move): the fast
 * tests, then, where the variant has encirclement or the immobile king, every other move.
 */
move_t threat_attackers_win_in_one(const struct position *p);

/* Returns an attacker move that wins at once by the fast tests (attackers to move). */
static inline move_t threat_attackers_in_one(const struct position *p) {
    move_t m = threat_king_capture_in_one(p);
    return m ? m : threat_encircle_in_one(p);
}

/* Returns a move of the berserker that wins at once, or MOVE_NONE (a berserk turn going on). */
move_t threat_berserker_win_in_one(const struct position *p);

/* Returns the immediate winning move of the side to move, if the fast tests find one. */
static inline move_t threat_win_in_one(const struct position *p) {
    if (__builtin_expect(pos_berserker(p) >= 0, 0)) return threat_berserker_win_in_one(p);
    return p->side == SIDE_DEFENDERS ? threat_escape_in_one(p) : threat_attackers_in_one(p);
}

/* Tells whether the side not to move threatens to win on its next move (the fast tests); not
   while a berserk turn goes on, when that side does not move next. */
static inline bool threat_against(const struct position *p) {
    if (__builtin_expect(pos_berserker(p) >= 0, 0)) return false;
    struct position q = *p;
    q.side = (uint8_t)!p->side;
    return p->side == SIDE_ATTACKERS ? threat_escape_in_one(&q) != MOVE_NONE
                                     : threat_attackers_in_one(&q) != MOVE_NONE;
}

#endif
