/* Move generation: per-piece slides for listing, occluded fills for counting. */
#include "engine/movegen.h"

/* Returns the jump mode of the piece on sq: the king's, a commander's, a knight's, or none. */
enum jump_mode movegen_jump_mode(const struct position *p, int sq) {
    const struct variant *v = p->v;
    if (sq == p->king_sq) return v->king_jump;
    if (!bb_has(p->spec, sq)) return JUMP_NONE;
    return bb_has(p->att, sq) ? v->commander_jump : v->knight_jump;
}

/* Returns the squares the piece on sq reaches by jumping an adjacent enemy man (not a king,
   commander or knight) onto the empty square beyond, one of `land`. */
static bb_t jump_targets(const struct position *p, int sq, bb_t land) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    enum jump_mode mode = movegen_jump_mode(p, sq);
    if (mode == JUMP_NONE) return BB_EMPTY;
    bb_t over = (bb_has(p->att, sq) ? p->def : p->att) & ~p->spec;
    bb_t t = BB_EMPTY;
    for (int d = 0; d < DIR_NB; d++) {
        int mid = g->nb[sq][d];
        if (mid < 0 || !bb_has(over, mid)) continue;
        int to = g->nb[mid][d];
        if (to < 0 || !bb_has(land, to)) continue;
        /* a restricted jump starts or ends on a special square */
        if (mode == JUMP_RESTRICTED && !bb_has(v->special_squares, sq) &&
            !bb_has(v->special_squares, to))
            continue;
        t |= bb_sq(to);
    }
    return t;
}

/* Returns the king's targets where fortress squares, his speed limit or jumps apply. */
bb_t movegen_king_targets_special(const struct position *p) {
    const struct variant *v = p->v;
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t pro = empty & ~v->king_block, land = empty & ~v->king_forbidden;
    if (bb_has(v->forts, p->king_sq)) {
        pro = movegen_unfort(v, pro, empty);
        land = movegen_unfort(v, land, empty);
    }
    bb_t t = movegen_king_limit(v, p->king_sq, bb_slides(&v->g, p->king_sq, pro) & land);
    if (v->king_jump != JUMP_NONE) t |= jump_targets(p, p->king_sq, land);
    return t;
}

/* Returns the squares the piece on sq may move to (empty if there is no piece). */
bb_t movegen_targets(const struct position *p, int sq) {
    const struct variant *v = p->v;
    if (bb_has(p->king, sq)) return movegen_king_targets(p);
    if (!bb_has(p->att | p->def, sq)) return BB_EMPTY;
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t pro = empty & ~v->men_block, land = empty & ~v->men_forbidden;
    if (bb_has(v->forts, sq)) {
        pro = movegen_unfort(v, pro, empty);
        land = movegen_unfort(v, land, empty);
    }
    bb_t t = bb_slides(&v->g, sq, pro) & land;
    if (bb_has(p->spec, sq)) t |= jump_targets(p, sq, land);
    return t;
}

/* Returns the pieces of the side to move that may move now: the berserker alone while a
   berserk turn goes on, else every piece of the side (the king included). */
static bb_t movers(const struct position *p) {
    return pos_berserker(p) >= 0 ? bb_sq(pos_berserker(p)) : pos_side_pieces(p, p->side);
}

_Static_assert(MAX_MOVES >= 4 * BB_MAX_SQUARES,
               "a move list holds every move of the largest board");

/* Appends the moves from `from` to each square of t, in ascending order of the target. */
static inline int emit(move_t *out, int n, int from, bb_t t) {
    for (int w = 0; w < BB_WORDS; w++)
        for (uint64_t x = bb_word(t, w); x; x &= x - 1)
            out[n++] = move_make(from, 64 * w + __builtin_ctzll(x));
    return n;
}

/* Lists the moves of the men of `men` through pro, landing on land; returns the new count. */
static inline int emit_men(const struct bb_geom *g, move_t *out, int n, bb_t men, bb_t pro,
                           bb_t land) {
    while (bb_any(men)) {
        int from = bb_pop(&men);
        n = emit(out, n, from, bb_slides(g, from, pro) & land);
    }
    return n;
}

/* Writes the moves of the side to move into out (room for MAX_MOVES); returns their number. */
int movegen_list(const struct position *p, move_t *out) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t empty = g->board & ~pos_occupied(p);
    bb_t men = p->side == SIDE_ATTACKERS ? p->att : p->def;
    int n = 0;
    if (v->special_pieces) {
        /* jumps, commanders, knights, berserk turns: piece by piece, the king first */
        bb_t who = movers(p);
        if (bb_has(who, p->king_sq)) n = emit(out, n, p->king_sq, movegen_king_targets(p));
        for (who &= ~p->king; bb_any(who);) {
            int from = bb_pop(&who);
            n = emit(out, n, from, movegen_targets(p, from));
        }
        return n;
    }
    if (p->side == SIDE_DEFENDERS) n = emit(out, n, p->king_sq, movegen_king_targets(p));
    bb_t pro = empty & ~v->men_block, land = empty & ~v->men_forbidden;
    if (!v->special_moves) return emit_men(g, out, n, men, pro, land);
    /* men on fortress squares, listed last */
    n = emit_men(g, out, n, men & ~v->forts, pro, land);
    return emit_men(g, out, n, men & v->forts, movegen_unfort(v, pro, empty),
                    movegen_unfort(v, land, empty));
}

/* Counts the slides of all pieces in gen through pro, landing on land, for an n x n board. */
static inline __attribute__((always_inline)) int count_slides_n(const struct bb_geom *g, bb_t gen,
                                                                bb_t pro, bb_t land, int n) {
    bb_t r[DIR_NB];
    bb_slides_by_dir(g, gen, pro, n, r);
    return bb_popcount(r[DIR_NORTH] & land) + bb_popcount(r[DIR_SOUTH] & land) +
           bb_popcount(r[DIR_EAST] & land) + bb_popcount(r[DIR_WEST] & land);
}

/* Returns the union of the slides of all pieces in gen, for an n x n board. */
static inline __attribute__((always_inline)) bb_t slide_set_n(const struct bb_geom *g, bb_t gen,
                                                              bb_t pro, bb_t land, int n) {
    bb_t r[DIR_NB];
    bb_slides_by_dir(g, gen, pro, n, r);
    return (r[DIR_NORTH] | r[DIR_SOUTH] | r[DIR_EAST] | r[DIR_WEST]) & land;
}

/* Counts the slides of all pieces in gen: through pro, landing on land. */
static int count_slides(const struct bb_geom *g, bb_t gen, bb_t pro, bb_t land) {
    return BB_BY_SIZE(g->size, count_slides_n(g, gen, pro, land, n));
}

/* Returns every square some piece of gen reaches in one slide through pro, landing on land. */
bb_t movegen_slide_set(const struct bb_geom *g, bb_t gen, bb_t pro, bb_t land) {
    if (!bb_several(bb_without_lowest(gen))) {
        /* one or two pieces: their rays are cheaper than the fills */
        bb_t r = BB_EMPTY;
        while (bb_any(gen)) r |= bb_slides(g, bb_pop(&gen), pro);
        return r & land;
    }
    return BB_BY_SIZE(g->size, slide_set_n(g, gen, pro, land, n));
}

/* Counts the moves of side s where fortress squares or the king's speed apply: men on forts and
   the king counted apart (kept out of line, so the common path stays as it was). */
static __attribute__((noinline)) int count_side_special(const struct position *p, int s) {
    const struct variant *v = p->v;
    if (v->special_pieces) {
        /* piece by piece; while a berserk turn goes on the side to move has its berserker only */
        bb_t who = s == p->side ? movers(p) : pos_side_pieces(p, s);
        int c = 0;
        while (bb_any(who)) c += bb_popcount(movegen_targets(p, bb_pop(&who)));
        return c;
    }
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t men = s == SIDE_ATTACKERS ? p->att : p->def;
    bb_t pro = empty & ~v->men_block, land = empty & ~v->men_forbidden;
    int c = count_slides(&v->g, men & ~v->forts, pro, land) +
            count_slides(&v->g, men & v->forts, movegen_unfort(v, pro, empty),
                         movegen_unfort(v, land, empty));
    if (s == SIDE_DEFENDERS) c += bb_popcount(movegen_king_targets(p));
    return c;
}

/* Counts the moves of side s (whoever is to move). */
int movegen_count_side(const struct position *p, int s) {
    const struct variant *v = p->v;
    if (v->special_moves) return count_side_special(p, s);
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t men = s == SIDE_ATTACKERS ? p->att : p->def;
    int c = count_slides(&v->g, men, empty & ~v->men_block, empty & ~v->men_forbidden);
    if (s == SIDE_DEFENDERS)
        c += count_slides(&v->g, p->king, empty & ~v->king_block, empty & ~v->king_forbidden);
    return c;
}

/* Counts the moves of the side to move without listing them. */
int movegen_count(const struct position *p) {
    return movegen_count_side(p, p->side);
}

/* Tells whether the side to move has a legal move: a one-square step answers at once. */
bool movegen_has_move(const struct position *p) {
    const struct variant *v = p->v;
    if (!v->special_moves) {
        const struct bb_geom *g = &v->g;
        bb_t empty = g->board & ~pos_occupied(p);
        bb_t men = p->side == SIDE_ATTACKERS ? p->att : p->def;
        if (bb_any(bb_neighbours(men, g) & empty & ~v->men_forbidden)) return true;
        if (p->side == SIDE_DEFENDERS &&
            bb_any(bb_neighbours(p->king, g) & empty & ~v->king_forbidden))
            return true;
    }
    return movegen_count(p) > 0;
}

/* Tells whether the move m is legal for the side to move (ignoring repetition rules). */
bool movegen_is_legal(const struct position *p, move_t m) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int from = move_from(m), to = move_to(m);
    if (from >= g->squares || to >= g->squares) return false;
    if (!bb_has(pos_side_pieces(p, p->side), from)) return false;
    if (v->special_pieces) return bb_has(movers(p), from) && bb_has(movegen_targets(p, from), to);
    /* only the line from `from` to `to` matters: every square up to `to` must be empty, and
       none before `to` may stop a slide */
    bool king = from == p->king_sq;
    bb_t block = king ? v->king_block : v->men_block;
    bb_t forbidden = king ? v->king_forbidden : v->men_forbidden;
    if (v->special_moves) {
        if (king && v->king_speed && !bb_has(v->king_near[from], to)) return false;
        if (bb_has(v->forts, from)) { /* a piece on a fortress square moves over them freely */
            block &= ~v->forts;
            forbidden &= ~v->forts;
        }
    }
    bb_t occ = pos_occupied(p);
    for (int d = 0; d < DIR_NB; d++) {
        if (!bb_has(g->ray[d][from], to)) continue;
        bb_t path = g->ray[d][from] & ~g->ray[d][to]; /* the squares up to `to`, `to` included */
        return bb_is_empty(path & occ) && bb_is_empty(path & ~bb_sq(to) & block) &&
               !bb_has(forbidden, to);
    }
    return false;
}
