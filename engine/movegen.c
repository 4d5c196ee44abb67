/* Move generation: per-piece slides for listing, occluded fills for counting. */
#include "engine/movegen.h"

/* Returns the squares the piece on sq may move to, given its block and forbidden masks. */
static inline bb_t slide_targets(const struct bb_geom *g, int sq, bb_t empty, bb_t block,
                                 bb_t forbidden) {
    bb_t t = 0;
    for (int d = 0; d < DIR_NB; d++) {
        int s = sq;
        while ((s = g->nb[s][d]) >= 0 && bb_has(empty, s)) {
            t |= bb_sq(s);
            if (bb_has(block, s)) break;
        }
    }
    return t & ~forbidden;
}

/* Returns the squares the piece on sq may move to (empty if there is no piece). */
bb_t piece_targets(const struct position *p, int sq) {
    const struct variant *v = p->v;
    bb_t empty = v->g.board & ~pos_occupied(p);
    if (bb_has(p->king, sq))
        return slide_targets(&v->g, sq, empty, v->king_block, v->king_forbidden);
    if (bb_has(p->att | p->def, sq))
        return slide_targets(&v->g, sq, empty, v->men_block, v->men_forbidden);
    return 0;
}

/* Writes the moves of the side to move into out (room for MAX_MOVES); returns their number. */
int gen_moves(const struct position *p, move_t *out) {
    const struct variant *v = p->v;
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t men = p->side == SIDE_ATTACKERS ? p->att : p->def;
    int n = 0;
    if (p->side == SIDE_DEFENDERS) {
        bb_t t = slide_targets(&v->g, p->king_sq, empty, v->king_block, v->king_forbidden);
        while (t) out[n++] = move_make(p->king_sq, bb_pop(&t));
    }
    while (men) {
        int from = bb_pop(&men);
        bb_t t = slide_targets(&v->g, from, empty, v->men_block, v->men_forbidden);
        while (t) out[n++] = move_make(from, bb_pop(&t));
    }
    return n;
}

/* Occluded fill of gen through pro, one direction at a time (Kogge-Stone, up to 15 steps). */
static inline bb_t fill_up(bb_t gen, bb_t pro, int step) {
    gen |= pro & (gen << step);
    pro &= pro << step;
    gen |= pro & (gen << (2 * step));
    pro &= pro << (2 * step);
    gen |= pro & (gen << (4 * step));
    pro &= pro << (4 * step);
    gen |= pro & (gen << (8 * step));
    return gen;
}

/* The same fill towards lower square indices. */
static inline bb_t fill_down(bb_t gen, bb_t pro, int step) {
    gen |= pro & (gen >> step);
    pro &= pro >> step;
    gen |= pro & (gen >> (2 * step));
    pro &= pro >> (2 * step);
    gen |= pro & (gen >> (4 * step));
    pro &= pro >> (4 * step);
    gen |= pro & (gen >> (8 * step));
    return gen;
}

/* Counts the slides of all pieces in gen: through pro, landing on land. */
static inline int count_slides(const struct bb_geom *g, bb_t gen, bb_t pro, bb_t land) {
    int n = g->size;
    bb_t pe = pro & g->not_a, pw = pro & g->not_end;
    int c = bb_popcount(bb_north(fill_up(gen, pro, n), g) & land);
    c += bb_popcount(bb_south(fill_down(gen, pro, n), g) & land);
    c += bb_popcount(bb_east(fill_up(gen, pe, 1), g) & land);
    c += bb_popcount(bb_west(fill_down(gen, pw, 1), g) & land);
    return c;
}

/* Returns every square some piece of gen reaches in one slide through pro, landing on land. */
bb_t slide_set(const struct bb_geom *g, bb_t gen, bb_t pro, bb_t land) {
    int n = g->size;
    bb_t pe = pro & g->not_a, pw = pro & g->not_end;
    bb_t r = bb_north(fill_up(gen, pro, n), g) | bb_south(fill_down(gen, pro, n), g) |
             bb_east(fill_up(gen, pe, 1), g) | bb_west(fill_down(gen, pw, 1), g);
    return r & land;
}

/* Counts the moves of side s (whoever is to move). */
int count_side_moves(const struct position *p, int s) {
    const struct variant *v = p->v;
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t men = s == SIDE_ATTACKERS ? p->att : p->def;
    int c = count_slides(&v->g, men, empty & ~v->men_block, empty & ~v->men_forbidden);
    if (s == SIDE_DEFENDERS)
        c += count_slides(&v->g, p->king, empty & ~v->king_block, empty & ~v->king_forbidden);
    return c;
}

/* Counts the moves of the side to move without listing them. */
int count_moves(const struct position *p) {
    return count_side_moves(p, p->side);
}

/* Tells whether the move m is legal for the side to move (ignoring repetition rules). */
bool move_is_legal(const struct position *p, move_t m) {
    int from = move_from(m), to = move_to(m);
    if (from >= p->v->g.squares || to >= p->v->g.squares) return false;
    if (!bb_has(pos_side_pieces(p, p->side), from)) return false;
    return bb_has(piece_targets(p, from), to);
}
