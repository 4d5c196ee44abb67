/* Captures (custodial, Linnaean, shieldwall) and the board-rule ends of a tafl game. */
#include "engine/rules.h"

#include "engine/movegen.h"

/* Returns the squares that act as an anvil against enemy men of kind `victim` for side mover. */
static inline bb_t anvils(const struct position *p, int mover, unsigned victim) {
    const struct variant *v = p->v;
    bb_t empty = v->g.board & ~pos_occupied(p);
    bb_t a = mover == SIDE_ATTACKERS ? p->att : p->def;
    if (mover == SIDE_DEFENDERS && v->king_anvil) a |= p->king;
    if (v->hostile_corner & victim) a |= v->corner_mask & empty;
    if (v->hostile_throne_empty & victim) a |= v->throne & empty;
    if ((v->hostile_throne_king & victim) && bb_eq(p->king, v->throne)) a |= v->throne;
    return a;
}

/* Tells whether sq may bracket a shieldwall for side mover: its own piece or an empty corner. */
static inline bool sw_bracket(const struct position *p, int sq, bb_t own) {
    if (sq < 0) return false;
    if (bb_has(own, sq)) return true;
    return p->v->sw_corner && bb_has(p->v->corner_mask & ~pos_occupied(p), sq);
}

/*
 * Returns the men of a wall along the edge from `start` in direction d (start itself included)
 * when the far end is a bracket, every member has an own piece inward, and the wall has two or
 * more pieces; 0 otherwise.
 */
static bb_t sw_run(const struct position *p, int start, int d, int in, bb_t own, bb_t enemy) {
    const struct bb_geom *g = &p->v->g;
    bb_t run = BB_EMPTY;
    int len = 0, s = start;
    while (s >= 0 && bb_has(enemy, s)) {
        int inner = g->nb[s][in];
        if (inner < 0 || !bb_has(own, inner)) return BB_EMPTY;
        run |= bb_sq(s);
        len++;
        s = g->nb[s][d];
    }
    if (len < 2 || !sw_bracket(p, s, own)) return BB_EMPTY;
    return run;
}

/* Returns the men captured by shieldwalls that the move to `to` completes (§4.3). */
static bb_t shieldwall_captures(const struct position *p, int to, int mover) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t own = pos_side_pieces(p, mover);
    bb_t enemy = pos_side_pieces(p, !mover);
    bb_t enemy_men = mover == SIDE_ATTACKERS ? p->def : p->att;
    bb_t caught = BB_EMPTY;
    int in = g->inward[to];
    if (in >= 0) {
        /* the bracketing move: walls running away from `to` along its edge */
        for (int d = 0; d < DIR_NB; d++) {
            if (d == in || d == (in + 2) % 4) continue;
            int s = g->nb[to][d];
            if (s >= 0) caught |= sw_run(p, s, d, in, own, enemy);
        }
    }
    if (!v->sw_flank_only) {
        /* relaxed rule: the moved piece is one of the pieces in front of a wall */
        for (int out = 0; out < DIR_NB; out++) {
            int e = g->nb[to][out];
            if (e < 0 || g->inward[e] != (out + 2) % 4 || !bb_has(enemy, e)) continue;
            int inw = g->inward[e];
            for (int d = 0; d < DIR_NB; d++) {
                if (d == inw || d == out) continue;
                /* walk to the far end of the wall against d, then test the wall from there */
                int s = e, back = (d + 2) % 4;
                while (g->nb[s][back] >= 0 && bb_has(enemy, g->nb[s][back])) s = g->nb[s][back];
                if (!sw_bracket(p, g->nb[s][back], own)) continue;
                caught |= sw_run(p, s, d, inw, own, enemy);
            }
        }
    }
    return caught & enemy_men;
}

/* Returns the empty squares where a man of the side to move would capture custodially. */
bb_t rules_capture_squares(const struct position *p) {
    const struct bb_geom *g = &p->v->g;
    int mover = p->side;
    bb_t victims = mover == SIDE_ATTACKERS ? p->def : p->att;
    bb_t anvil = anvils(p, mover, mover == SIDE_ATTACKERS ? KIND_D : KIND_A);
    bb_t empty = g->board & ~pos_occupied(p);
    /* a victim with an anvil beyond it in direction d is taken by a man landing on its other
       side, one step against d */
    bb_t squares = BB_EMPTY;
    for (int d = 0; d < DIR_NB; d++) {
        int back = (d + 2) % 4;
        squares |= bb_shift(victims & bb_shift(anvil, back, g), back, g);
    }
    return squares & empty;
}

/* Returns the men captured by the move of side `mover` that landed on to (the full test). */
bb_t rules_captures_full(const struct position *p, int to, int mover) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t enemy_men = mover == SIDE_ATTACKERS ? p->def : p->att;
    bb_t caught = BB_EMPTY;
    bb_t near = enemy_men & g->nbrs[to];
    if (bb_any(near)) {
        bb_t anvil = anvils(p, mover, mover == SIDE_ATTACKERS ? KIND_D : KIND_A);
        for (int d = 0; d < DIR_NB; d++) {
            int vsq = g->nb[to][d];
            if (vsq < 0 || !bb_has(near, vsq)) continue;
            int f = g->nb[vsq][d];
            if (f >= 0 && bb_has(anvil, f))
                caught |= bb_sq(vsq);
            else if (v->linnaean && mover == SIDE_ATTACKERS && f == v->throne_sq &&
                     p->king_sq == f) {
                /* Linnaean capture: the king's three other neighbours are attackers */
                bb_t others = g->nbrs[p->king_sq] & ~bb_sq(vsq);
                if (bb_eq(others & p->att, others)) caught |= bb_sq(vsq);
            }
        }
    }
    /* a wall flanked by the move starts with an enemy piece beside `to` on the edge */
    if (v->shieldwall &&
        (v->sw_flank_only
             ? g->inward[to] >= 0 && bb_any(pos_side_pieces(p, !mover) & g->nbrs[to] & g->edge)
             : true))
        caught |= shieldwall_captures(p, to, mover);
    return caught;
}

/* Returns the squares that count against the king (§4.2) given the attackers and the occupied. */
static inline bb_t against_king(const struct variant *v, bb_t att, bb_t occ) {
    bb_t hostile = BB_EMPTY;
    if (v->hostile_corner & KIND_K) hostile |= v->corner_mask;
    if (v->hostile_throne_empty & KIND_K) hostile |= v->throne;
    return att | (hostile & ~occ);
}

/* Returns the square beyond the king seen from to, a square beside him (-1 off the board). */
static inline int beyond_king(const struct bb_geom *g, int k, int to) {
    int d = 0;
    while (g->nb[k][d] != to) d++;
    return g->nb[k][(d + 2) % 4];
}

/*
 * Tells whether a commander arriving on to (beside the king) would capture him where the
 * attackers have commanders (OpenTafl's Berserk): a commander or a corner beyond the king, and
 * neither the king nor either of those squares on the throne. Which piece arrives is not asked.
 */
static bool commander_line(const struct position *p, int to) {
    const struct variant *v = p->v;
    int k = p->king_sq, q = beyond_king(&v->g, k, to);
    if (k == v->throne_sq || to == v->throne_sq || q < 0 || q == v->throne_sq) return false;
    return bb_has((p->spec & p->att) | v->corner_mask, q);
}

/* Tells whether the attacker standing on to (beside the king) captures him, for these sets. */
static inline bool king_taken(const struct position *p, int to, bb_t att, bb_t occ) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int k = p->king_sq;
    if (!bb_has(g->nbrs[k], to)) return false;
    if (v->king_capture == KING_CAPTURE_COMMANDER) /* the mover must be a commander */
        return bb_has(p->spec & p->att, to) && commander_line(p, to);
    bb_t against = against_king(v, att, occ);
    bool edge = bb_any(p->king & g->edge); /* an off-board neighbour */
    enum king_capture mode = rules_king_mode(p);
    if (mode == KING_CAPTURE_CUSTODIAL) {
        int q = beyond_king(g, k, to);
        return q >= 0 ? bb_has(against, q) : v->hostile_edge_king;
    }
    return bb_is_empty(g->nbrs[k] & ~against) && (!edge || v->hostile_edge_king);
}

/* Tells whether the attacker that landed on to captures the king (rules.md §4.2). */
bool rules_king_captured(const struct position *p, int to) {
    return king_taken(p, to, p->att, pos_occupied(p));
}

/*
 * Sorts the empty squares beside the king (attackers to move) by what an attacker arriving there
 * does; see rules.h. An arriving attacker changes only his target and his start square, which is
 * never beside the king, and the men he captures stand beside his target, so never beside the
 * king either.
 */
bb_t rules_king_spots(const struct position *p, bb_t *captures) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int k = p->king_sq;
    bb_t occ = pos_occupied(p);
    bb_t spots = g->nbrs[k] & ~occ & ~v->men_forbidden, caps = BB_EMPTY, maybe = BB_EMPTY;
    *captures = BB_EMPTY;
    if (bb_is_empty(spots)) return BB_EMPTY;
    enum king_capture mode = rules_king_mode(p);
    if (mode == KING_CAPTURE_COMMANDER) {
        /* only a commander captures, so which attacker arrives matters: a square with a
           commander or a corner beyond the king is one where making the move tells */
        for (bb_t s = spots; bb_any(s);) {
            int to = bb_pop(&s);
            if (commander_line(p, to)) maybe |= bb_sq(to);
        }
    } else if (mode == KING_CAPTURE_FOUR) {
        /* the arriving attacker must fill the only square beside the king that does not yet
           count against him */
        bb_t need = g->nbrs[k] & ~against_king(v, p->att, occ);
        if ((bb_is_empty(p->king & g->edge) || v->hostile_edge_king) && !bb_several(need))
            caps = spots & need;
    } else {
        for (bb_t s = spots; bb_any(s);) {
            int to = bb_pop(&s);
            if (king_taken(p, to, p->att | bb_sq(to), occ | bb_sq(to))) caps |= bb_sq(to);
        }
    }
    *captures = caps;
    spots &= ~caps;
    if (v->immobile_king) {
        /* every square beside the king but one defender must then hold an attacker, a throne or
           a corner: at most the target may still be open */
        bb_t open = g->nbrs[k] & ~(p->att | p->def | v->throne | v->corner_mask);
        if (!bb_several(open)) maybe |= spots & open;
    }
    if (v->encirclement && bb_is_empty(p->king & g->edge)) {
        bb_t pass = g->board & ~p->att;
        /* a line from the king to the edge without an attacker keeps him out of any ring,
           unless the arriving attacker closes it, which he can do for one line only */
        bb_t open = BB_EMPTY;
        for (int d = 0; d < DIR_NB; d++)
            if (bb_is_empty(g->ray[d][k] & p->att)) open |= bb_sq(g->nb[k][d]);
        bb_t cand = bb_several(open) ? BB_EMPTY : spots & ~maybe & (bb_any(open) ? open : spots);
        /* if the region reaches the edge with every candidate closed, none can shut him in */
        if (bb_several(cand) && bb_flood_reaches(g, p->king, pass & ~cand, g->edge))
            cand = BB_EMPTY;
        for (bb_t s = cand; bb_any(s);) {
            int to = bb_pop(&s);
            /* the defenders must all be off the edge afterwards: only a shieldwall takes men
               that are not beside the target */
            bool wall = v->shieldwall && (g->inward[to] >= 0 || !v->sw_flank_only);
            if (!wall && bb_any(p->def & g->edge & ~g->nbrs[to])) continue;
            /* the king must be shut in: his region without `to` (the start square, which the
               region may gain, is ignored) must not reach the edge */
            if (!bb_flood_reaches(g, p->king, pass & ~bb_sq(to), g->edge)) maybe |= bb_sq(to);
        }
    }
    return maybe;
}

/* Tells whether the seed-Tablut immobile-king rule (§4.6) gives the attackers the win. */
bool rules_immobile_king(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    /* an empty square beside the king other than a throne or corner lets him breathe */
    if (bb_any(g->nbrs[p->king_sq] & ~pos_occupied(p) & ~(v->throne | v->corner_mask)))
        return false;
    bb_t group = p->king | (p->def & g->nbrs[p->king_sq]);
    if (bb_popcount(group) > 2) return false;
    bb_t man = group & ~p->king;
    if (bb_any(man) && bb_any(bb_neighbours(man, g) & p->def)) return false;
    bb_t around = bb_neighbours(group, g) & ~group;
    if (!bb_eq(around & (p->att | v->throne | v->corner_mask), around)) return false;
    if (bb_any(movegen_targets(p, p->king_sq))) return false;
    return bb_is_empty(man) || bb_is_empty(movegen_targets(p, bb_lsb(man)));
}

/* Tells whether the attackers enclose the king and every defender (§4.5). */
bool rules_encircled(const struct position *p) {
    const struct bb_geom *g = &p->v->g;
    if (bb_any((p->def | p->king) & g->edge)) return false;
    for (int d = 0; d < DIR_NB; d++)
        if (bb_is_empty(g->ray[d][p->king_sq] & p->att))
            return false; /* a free line from the king */
    return !bb_flood_reaches(g, p->def | p->king, g->board & ~p->att, g->edge);
}

/* Returns the men of U that could be taken by a custodial pair standing on `stand` (§4.4 F3). */
static bb_t fort_breakable(const struct position *p, bb_t u, bb_t stand, bb_t host) {
    const struct bb_geom *g = &p->v->g;
    bb_t sn = bb_south(stand, g), ss = bb_north(stand, g); /* a stand square north / south */
    bb_t hn = bb_south(host, g), hs = bb_north(host, g);
    bb_t se = bb_west(stand, g), sw = bb_east(stand, g);
    bb_t he = bb_west(host, g), hw = bb_east(host, g);
    bb_t vert = (sn & (ss | hs)) | (ss & hn);
    bb_t horiz = (se & (sw | hw)) | (sw & he);
    return u & (vert | horiz);
}

/* Returns the men of U in edge walls that attackers on `stand` could take as a shieldwall. */
static bb_t fort_shieldwall_threat(const struct position *p, bb_t u, bb_t stand) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    bb_t wall = (u | p->king) & g->edge, out = BB_EMPTY;
    bb_t seen = BB_EMPTY;
    bb_t w = wall;
    while (bb_any(w)) {
        int s = bb_pop(&w);
        if (bb_has(seen, s)) continue;
        int in = g->inward[s];
        if (in < 0) continue;
        /* the maximal run along this edge through s */
        int along = (in + 1) % 4, back = (in + 3) % 4;
        int a = s;
        while (g->nb[a][back] >= 0 && bb_has(wall, g->nb[a][back]) &&
               g->inward[g->nb[a][back]] == in)
            a = g->nb[a][back];
        bb_t run = BB_EMPTY;
        int len = 0, b = a;
        bool fronted = true;
        while (b >= 0 && bb_has(wall, b) && g->inward[b] == in) {
            run |= bb_sq(b);
            len++;
            if (!bb_has(stand, g->nb[b][in])) fronted = false;
            b = g->nb[b][along];
        }
        seen |= run;
        int e1 = g->nb[a][back], e2 = b;
        bool ends = true;
        for (int k = 0; k < 2; k++) {
            int e = k ? e2 : e1;
            bool corner_ok = e >= 0 && v->sw_corner && bb_has(v->corner_mask, e);
            if (!(e >= 0 && (bb_has(stand, e) || corner_ok))) ends = false;
        }
        if (len >= 2 && fronted && ends) out |= run;
    }
    return out & u & ~p->king;
}

/* Tells whether the king stands in an unbreakable exit fort on the edge (§4.4). */
bool rules_exit_fort(const struct position *p) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (bb_is_empty(p->king & g->edge)) return false;
    bb_t occ = pos_occupied(p), empty = g->board & ~occ;
    if (bb_is_empty(bb_neighbours(p->king, g) & empty)) return false;
    /* F1: the interior around the king, through everything but defender men */
    bb_t interior = bb_flood(p->king, g->board & ~p->def, g);
    if (bb_any(interior & p->att)) return false;
    /* F2: the wall */
    bb_t wall = p->def & bb_neighbours(interior, g);
    /* F3: remove what the attackers could ever break */
    bb_t host = BB_EMPTY;
    if (v->hostile_corner & KIND_D) host |= v->corner_mask & empty;
    if (v->hostile_throne_empty & KIND_D) host |= v->throne & empty;
    bb_t no_enter =
        interior | v->corner_mask | (v->throne_pass == THRONE_ALL ? BB_EMPTY : v->throne);
    bb_t u = p->def;
    for (;;) {
        bb_t pass = (empty | (p->def & ~u) | p->att) & ~no_enter;
        bb_t reach = bb_flood(p->att, pass, g);
        bb_t stand = (reach | p->att) & ~(v->throne | v->corner_mask);
        bb_t gone = fort_breakable(p, u, stand, host);
        if (v->shieldwall) gone |= fort_shieldwall_threat(p, u, stand);
        if (bb_is_empty(gone)) return true;
        if (bb_any(gone & wall)) return false;
        u &= ~gone;
    }
}

/*
 * Decides the end of the game by the board rules (§4.10 checks 1-4) after side `mover` moved to
 * `to`, or, with to < 0, for a loaded position whose last mover is `mover`: then only what the
 * position itself proves counts (the king on an escape square, an exit fort, an immobile king,
 * an encirclement), never a capture, which only a move makes.
 */
void rules_decide_full(struct position *p, int to, int mover) {
    const struct variant *v = p->v;
    p->result = RESULT_NONE;
    p->reason = END_NONE;
    if ((mover == SIDE_DEFENDERS || to < 0) && bb_any(p->king & v->escape_mask)) {
        p->result = RESULT_DEFENDERS;
        p->reason = END_ESCAPE;
    } else if (mover == SIDE_DEFENDERS) {
        if (v->exit_fort && rules_exit_fort(p)) {
            p->result = RESULT_DEFENDERS;
            p->reason = END_EXIT_FORT;
        }
    } else if (to >= 0 && rules_king_captured(p, to)) {
        p->result = RESULT_ATTACKERS;
        p->reason = END_KING_CAPTURED;
    } else if (v->immobile_king && rules_immobile_king(p)) {
        p->result = RESULT_ATTACKERS;
        p->reason = END_IMMOBILE_KING;
    } else if (v->encirclement && rules_encircled(p)) {
        p->result = RESULT_ATTACKERS;
        p->reason = END_ENCIRCLED;
    }
}
