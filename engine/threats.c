/* Threat detection: the attackers' wins in one move (the escapes are inline in the header). */
#include "engine/threats.h"
#include "engine/make.h"

#include "engine/movegen.h"
#include "engine/rules.h"

/* Returns an attacker move onto a square beside the king that wins at once, or MOVE_NONE. */
move_t threat_king_capture_in_one(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t captures, maybe = rules_king_spots(p, &captures);
    bb_t spots = captures | maybe;
    if (bb_is_empty(spots)) return MOVE_NONE;
    bb_t stop = pos_occupied(p) | v->men_block;
    while (bb_any(spots)) {
        int to = bb_pop(&spots);
        /* the first piece (or blocking square) from `to` in each direction: an attacker there
           can move to `to` */
        for (int d = 0; d < DIR_NB; d++) {
            bb_t first = g->ray[d][to] & stop;
            if (bb_is_empty(first)) continue;
            int s = d == DIR_NORTH || d == DIR_EAST ? bb_lsb(first) : bb_msb(first);
            if (!bb_has(p->att, s)) continue;
            move_t m = move_make(s, to);
            if (bb_has(captures, to)) return m;
            struct position after;
            make_move(&after, p, m);
            if (after.result == RESULT_ATTACKERS) return m;
        }
    }
    return MOVE_NONE;
}

/* Fills r with the king's way out where fortress squares or his speed limit apply: each of his
   moves cut to the limit (he stands on a fortress square only if a position put him there). */
void threat_king_reach_special(const struct position *p, struct king_reach *r) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    r->pro = empty & ~v->king_block;
    r->land = empty & ~v->king_forbidden;
    r->one = movegen_king_targets(p);
    bb_t esc = v->escape_mask, towards = v->escape_approach;
    bb_t second = r->one & ~esc & towards;
    r->two_escapes = BB_EMPTY;
    while (bb_any(second)) {
        int s = bb_pop(&second);
        r->two_escapes |= movegen_king_limit(v, s, bb_slides(g, s, r->pro) & r->land);
    }
    r->two_escapes &= esc & ~r->one;
}

/* Returns the first piece (or stopping square) from sq in each direction that holds an attacker,
   as a set: the attackers that can slide to sq. */
static bb_t attackers_to(const struct position *p, int sq) {
    const struct bb_geom *g = &p->v->g;
    bb_t stop = pos_occupied(p) | p->v->men_block, from = BB_EMPTY;
    for (int d = 0; d < DIR_NB; d++) {
        bb_t first = g->ray[d][sq] & stop;
        if (bb_is_empty(first)) continue;
        int s = d == DIR_NORTH || d == DIR_EAST ? bb_lsb(first) : bb_msb(first);
        if (bb_has(p->att, s)) from |= bb_sq(s);
    }
    return from;
}

/*
 * A small cache, per thread, of outside_ring's answer by the attackers' squares: the search asks
 * about the same attackers again and again (after every defender move), so most asks are hits.
 */
enum { RING_CACHE = 256 };
static _Thread_local struct ring_entry {
    const struct bb_geom *g;
    bb_t att, ring, outside;
} ring_cache[RING_CACHE];

/*
 * Sets *ring to the attackers and their 8 neighbours, and *outside to the squares off the ring
 * joined to the edge through squares off the ring, on an n x n board. A defender in the outside
 * cannot be shut in by one more attacker: the closing square touches the ring.
 */
static inline __attribute__((always_inline)) void outside_ring(const struct bb_geom *g, bb_t att,
                                                               int n, bb_t *ring, bb_t *outside) {
    uint64_t h = bb_word(att, 0) ^ bb_word(att, 1) * 0x9E3779B97F4A7C15ULL;
    for (int w = 2; w < BB_WORDS; w++) h ^= bb_word(att, w) * (0x9E3779B97F4A7C15ULL + 2 * w);
    h *= 0xD6E8FEB86659FD93ULL;
    struct ring_entry *e = &ring_cache[h >> 56];
    if (e->g == g && bb_eq(e->att, att)) {
        *ring = e->ring;
        *outside = e->outside;
        return;
    }
    bb_t row = att | bb_east(att, g) | bb_west(att, g);
    bb_t r = row | bb_north_n(row, g, n) | bb_south_n(row, n);
    bb_t free = g->board & ~r, out = g->edge & free, prev;
    do {
        prev = out;
        out |= bb_neighbours_n(out, g, n) & free;
    } while (!bb_eq(out, prev));
    *e = (struct ring_entry){g, att, r, out};
    *ring = r;
    *outside = out;
}

/* Returns the first legal move of the side to move that ends the game with `win`, trying each,
   or MOVE_NONE. */
static move_t first_move_to(const struct position *p, enum result win) {
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        struct position after;
        make_move(&after, p, moves[i]);
        if (after.result == win) return moves[i];
    }
    return MOVE_NONE;
}

/* Returns a move that keeps shut in defenders who are already shut in (a loaded position). */
static move_t keep_shut(const struct position *p) {
    return first_move_to(p, RESULT_ATTACKERS);
}

/*
 * Returns an attacker move that completes an encirclement at once, or MOVE_NONE (the attackers
 * to move), on an n x n board. The closing square must lie on every path from the defenders to
 * the edge, so it is looked for only on one shortest such path, after a cheap test that rules
 * out most positions: the attackers grown by one square (diagonals too) must already shut the
 * defenders in, since the closing square touches the ring. A move found is checked by making it.
 */
static inline __attribute__((always_inline)) move_t encircle_n(const struct position *p, int n) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t def = p->def | p->king;
    /* a line from the king to the edge must be closed too: at most one may be open */
    bb_t open_line = BB_EMPTY;
    for (int d = 0; d < DIR_NB; d++) {
        if (bb_any(g->ray[d][p->king_sq] & p->att)) continue;
        if (bb_any(open_line)) return MOVE_NONE;
        open_line = g->ray[d][p->king_sq];
    }
    bb_t pass = g->board & ~p->att;
    bb_t ring, outside;
    outside_ring(g, p->att, n, &ring, &outside);
    if (bb_any(def & outside)) return MOVE_NONE;
    /* the squares on shortest paths from the defenders to the edge, by distance: a square that
       every path crosses is the only one at its distance, so only those are tried */
    bb_t fwd[BB_MAX_SQUARES], seen = def;
    int len = 0;
    fwd[0] = def;
    while (bb_is_empty(fwd[len] & g->edge)) {
        bb_t next = bb_neighbours_n(fwd[len], g, n) & pass & ~seen;
        if (bb_is_empty(next)) return keep_shut(p);
        seen |= next;
        fwd[++len] = next;
    }
    bb_t empty = g->board & ~pos_occupied(p) & ~v->men_forbidden;
    bb_t cand = BB_EMPTY, back = fwd[len] & g->edge, seen_back = back;
    for (int k = len; k >= 1; k--) {
        bb_t level = fwd[k] & back; /* distance k from the defenders, len - k from the edge */
        if (!bb_several(level)) cand |= level;
        back = bb_neighbours_n(back, g, n) & pass & ~seen_back;
        seen_back |= back;
    }
    /* the closing square touches the ring (see above) and lies on the king's open line */
    cand &= empty & ring & (bb_any(open_line) ? open_line : g->board);
    while (bb_any(cand)) {
        int to = bb_pop(&cand);
        if (bb_flood_reaches_n(g, def, pass & ~bb_sq(to), g->edge, n)) continue;
        for (bb_t from = attackers_to(p, to); bb_any(from);) {
            move_t m = move_make(bb_pop(&from), to);
            struct position after;
            make_move(&after, p, m);
            if (after.result == RESULT_ATTACKERS) return m;
        }
    }
    return MOVE_NONE;
}

/* Returns an attacker move that completes an encirclement at once, or MOVE_NONE. */
move_t threat_encircle_in_one(const struct position *p) {
    if (!p->v->encirclement || bb_any((p->def | p->king) & p->v->g.edge)) return MOVE_NONE;
    return BB_BY_SIZE(p->v->size, encircle_n(p, n));
}

/* Returns any attacker move that wins at once, or MOVE_NONE (the attackers to move). */
move_t threat_attackers_win_in_one(const struct position *p) {
    move_t m = threat_king_capture_in_one(p);
    if (!m) m = threat_encircle_in_one(p);
    if (m || !(p->v->encirclement || p->v->immobile_king)) return m;
    return first_move_to(p, RESULT_ATTACKERS);
}

/* Returns a move of the berserker that wins at once, or MOVE_NONE (a berserk turn going on). */
move_t threat_berserker_win_in_one(const struct position *p) {
    return first_move_to(p, p->side == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS);
}
