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

/* The full capture test behind rules_captures, for a move its pre-check could not settle. */
bb_t rules_captures_full(const struct position *p, int to, int mover);

/*
 * Returns the men captured by the move of side `mover` that landed on to. Every capture (custodial,
 * Linnaean, shieldwall under either rule) needs an enemy piece beside `to`, so most moves are
 * settled here without a call.
 */
static inline bb_t rules_captures(const struct position *p, int to, int mover) {
    const struct variant *v = p->v;
    if (bb_is_empty(pos_side_pieces(p, !mover) & v->g.nbrs[to])) return BB_EMPTY;
    if (bb_has(p->king, to) && !v->king_hammer) return BB_EMPTY;
    return rules_captures_full(p, to, mover);
}

/*
 * Returns the empty squares where a man of the side to move, landing there, would capture an
 * enemy man custodially (against an own piece or a hostile square beyond it). Shieldwall and
 * Linnaean captures are not included: this serves move selection (which moves to try first or
 * in quiescence), never the rules themselves.
 */
bb_t rules_capture_squares(const struct position *p);

/* Returns how the king is taken where he stands: throne_four becomes four on or beside the
   throne and custodial elsewhere; the other rules are the variant's. */
static inline enum king_capture rules_king_mode(const struct position *p) {
    const struct variant *v = p->v;
    if (v->king_capture != KING_CAPTURE_THRONE_FOUR) return v->king_capture;
    return bb_any((v->g.nbrs[p->king_sq] | p->king) & v->throne) ? KING_CAPTURE_FOUR
                                                                 : KING_CAPTURE_CUSTODIAL;
}

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

/*
 * The full end test behind rules_decide, for a move its pre-check could not settle; with to < 0,
 * the end of a loaded position whose last mover was `mover` (only what the position proves).
 */
void rules_decide_full(struct position *p, int to, int mover);

/*
 * Decides the end of the game by the board rules after side `mover` moved to `to` (checks 1-4 of
 * §4.10); sets p->result and p->reason. Settled here without a call: a defender move when the
 * king is off the edge and off the escape squares (exit forts are on the edge, and so are the
 * escape squares of every variant but Alea Evangelii's 2x2 corners), an attacker move that
 * lands away from the king when the variant has no immobile-king rule and a defender piece is
 * on the edge (no encirclement then).
 */
static inline void rules_decide(struct position *p, int to, int mover) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    p->result = RESULT_NONE;
    p->reason = END_NONE;
    if (mover == SIDE_DEFENDERS) {
        if (bb_is_empty(p->king & v->king_end_squares)) return;
    } else if (!bb_has(g->nbrs[p->king_sq], to) && !v->immobile_king) {
        if (!v->encirclement || bb_any((p->def | p->king) & g->edge)) return;
    }
    rules_decide_full(p, to, mover);
}

/* Decides the board-rule end of a loaded position (no move known): sets result and reason. */
static inline void rules_decide_loaded(struct position *p) {
    rules_decide_full(p, -1, !p->side);
}

#endif
