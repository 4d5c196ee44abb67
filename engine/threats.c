/* Threat detection: the attackers' wins in one move (the escapes are inline in the header). */
#include "engine/threats.h"

#include "engine/movegen.h"
#include "engine/rules.h"

/* Fills r with the king's way out in p (whoever is to move). */
void threat_king_reach(const struct position *p, struct king_reach *r) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    r->pro = empty & ~v->king_block;
    r->land = empty & ~v->king_forbidden;
    r->one = bb_slides(g, p->king_sq, r->pro) & r->land;
    /* a slide ends on a corner only from the corner's rank or file, both on the edge */
    bb_t esc = v->escape_mask, towards = v->escape == ESCAPE_CORNER ? g->edge : g->board;
    r->two_escapes = slide_set(g, r->one & ~esc & towards, r->pro, r->land) & esc & ~r->one;
}

/* Returns an attacker move onto a square beside the king that wins at once, or MOVE_NONE. */
move_t threat_king_capture_in_one(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t captures, maybe = rules_king_spots(p, &captures);
    bb_t spots = captures | maybe;
    if (!spots) return MOVE_NONE;
    bb_t stop = pos_occupied(p) | v->men_block;
    while (spots) {
        int to = bb_pop(&spots);
        /* the first piece (or blocking square) from `to` in each direction: an attacker there
           can move to `to` */
        for (int d = 0; d < DIR_NB; d++) {
            bb_t first = g->ray[d][to] & stop;
            if (!first) continue;
            int s = d == DIR_NORTH || d == DIR_EAST ? bb_lsb(first) : bb_msb(first);
            if (!bb_has(p->att, s)) continue;
            move_t m = move_make(s, to);
            if (bb_has(captures, to)) return m;
            struct position after;
            pos_make(&after, p, m);
            if (after.result == RESULT_ATTACKERS) return m;
        }
    }
    return MOVE_NONE;
}

/* Returns any attacker move that wins at once, or MOVE_NONE (the attackers to move). */
move_t threat_attackers_win_in_one(const struct position *p) {
    move_t m = threat_king_capture_in_one(p);
    if (m || !(p->v->encirclement || p->v->immobile_king)) return m;
    move_t moves[MAX_MOVES];
    int n = gen_moves(p, moves);
    for (int i = 0; i < n; i++) {
        struct position after;
        pos_make(&after, p, moves[i]);
        if (after.result == RESULT_ATTACKERS) return moves[i];
    }
    return MOVE_NONE;
}
