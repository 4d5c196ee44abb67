/* The evaluation terms: material, the king's way out, mobility, guards and pressure. */
#include "search/eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "engine/threats.h"

const struct eval_weights eval_default_weights = {
#define EVAL_DEFAULT(name, def) .name = def,
    EVAL_WEIGHT_LIST(EVAL_DEFAULT)
#undef EVAL_DEFAULT
};

/* Returns the corner-variant terms from the defenders' view: blocks near the corners (boards of
   9x9 and more), the king's distance to them and the region the king can walk in. */
static int corner_terms(const struct position *p, const struct eval_weights *w) {
    const struct bb_geom *g = &p->v->g;
    bb_t corners = p->v->corner_mask, near = corners | g->beside_corners;
    bb_t ring2 = bb_neighbours(g->beside_corners, g) & ~near;
    bb_t ring3 = bb_neighbours(ring2, g) & ~near & ~ring2 & ~g->edge;
    int score = 0;
    /* on the 7x7 board these squares are next to the throne's: blocks there measured worse */
    if (g->size >= 9)
        score -= w->corner_diag * bb_popcount(ring2 & ~g->edge & p->att) +
                 w->corner_edge2 * bb_popcount(ring2 & g->edge & p->att) +
                 w->corner_ring3 * bb_popcount(ring3 & p->att);
    int n = g->size - 1, r = p->king_sq / g->size, f = p->king_sq % g->size;
    int dr = r < n - r ? r : n - r, df = f < n - f ? f : n - f;
    score -= w->king_corner_dist * (dr + df);
    if (w->king_edge_reach || w->king_sealed) {
        bb_t region = bb_flood(p->king, g->board & ~p->att, g);
        score += w->king_edge_reach * bb_popcount(region & g->edge);
        if (bb_is_empty(region & corners)) score -= w->king_sealed;
    }
    return score;
}

/* Evaluates p from the side to move's point of view. */
int eval_position(const struct position *p, const struct eval_weights *w) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    int score = w->defender * bb_popcount(p->def) - w->attacker * bb_popcount(p->att);

    /* the king's way out: squares reachable in one and two slides */
    struct king_reach k;
    threat_king_reach(p, &k);
    score += w->king_mobility * bb_popcount(k.one);
    if (bb_any(k.two_escapes)) {
        score += w->escape_in_two + w->escape_routes_two * (bb_popcount(k.two_escapes) - 1);
    } else {
        /* a slide ends on a corner only from the corner's rank or file, both on the edge */
        bb_t towards = v->escape_approach;
        bb_t reach2 = movegen_slide_set(g, k.one, k.pro, k.land);
        if (bb_any(movegen_slide_set(g, reach2 & towards, k.pro, k.land) & v->escape_mask))
            score += w->escape_in_three;
    }

    /* guards and pressure around the king and the corners */
    bb_t around = g->nbrs[p->king_sq];
    score -= w->king_attackers * bb_popcount(around & p->att);
    score += w->king_guards * bb_popcount(around & p->def);
    if (v->escape == ESCAPE_CORNER) {
        int guard = g->size >= 9 ? w->corner_guard : w->small_corner_guard;
        score -= guard * bb_popcount(g->beside_corners & p->att);
        if (bb_any(p->king & g->edge)) score += w->edge_king;
        score += corner_terms(p, w);
    }
    score = p->side == SIDE_DEFENDERS ? score : -score;
    return score + w->tempo;
}

/* One step of an augmenting path: the node it came from (2 x square + 0 entering, 1 leaving). */
enum { RING_FROM_SOURCE = -2, RING_UNSEEN = -1 };

/*
 * Returns the fewest empty squares the attackers must still fill (at most cap) so that no path
 * of squares free of attackers leads from a piece of `shut` to the edge: the gaps of the ring
 * that wins by encirclement. It is a minimum vertex cut, found as a maximum flow by augmenting
 * paths, each square a node of capacity 1 split in two (entering, leaving); squares no attacker
 * may stop on (the throne, the corners) and those of `shut` cannot be filled. Returns cap when
 * a piece of `shut` already stands on the edge.
 */
int eval_ring_gaps(const struct position *p, bb_t shut, int cap) {
    return eval_ring_flow(p, shut, cap, NULL);
}

/* eval_ring_gaps, and in *carried (if not NULL) the squares its flow passes through. */
int eval_ring_flow(const struct position *p, bb_t shut, int cap, bb_t *carried) {
    return eval_cut_flow(p, shut, BB_EMPTY, p->v->g.edge, cap, carried);
}

/* Returns the fewest empty squares the attackers must fill (at most cap) to shut the king away
   from every corner (eval_cut_flow; the defenders' men stand where they are), or 0 where the
   king escapes by the edge. */
int eval_corner_gaps(const struct position *p, int cap) {
    if (p->v->escape != ESCAPE_CORNER) return 0;
    return eval_cut_flow(p, p->king, p->def, p->v->corner_mask, cap, NULL);
}

/* eval_ring_flow from `shut` to the squares of `sink` instead of the edge, `keep` also unfilled. */
int eval_cut_flow(const struct position *p, bb_t shut, bb_t keep, bb_t sink, int cap,
                  bb_t *carried) {
    const struct variant *v = p->v;
    const struct bb_geom *g = &v->g;
    if (carried) *carried = BB_EMPTY;
    if (bb_any(shut & sink)) return cap;
    bb_t open = g->board & ~p->att, unfillable = shut | keep | v->throne | v->corner_mask;
    int n = g->size * g->size;
    short through[BB_MAX_SQUARES] = {0}, prev[2 * BB_MAX_SQUARES], queue[2 * BB_MAX_SQUARES];
    signed char flow[BB_MAX_SQUARES][DIR_NB] = {{0}}; /* net flow from a square to its neighbour */
    int gaps = 0;
    while (gaps < cap) {
        for (int i = 0; i < 2 * n; i++) prev[i] = RING_UNSEEN;
        int head = 0, tail = 0, end = -1;
        for (bb_t s = shut; bb_any(s);) {
            int sq = bb_pop(&s);
            prev[2 * sq] = RING_FROM_SOURCE;
            queue[tail++] = (short)(2 * sq);
        }
        while (head < tail && end < 0) {
            int x = queue[head++], sq = x >> 1;
#define RING_VISIT(node)                                                                           \
    do {                                                                                           \
        int y_ = (node);                                                                           \
        if (prev[y_] == RING_UNSEEN) {                                                             \
            prev[y_] = (short)x;                                                                   \
            queue[tail++] = (short)y_;                                                             \
        }                                                                                          \
    } while (0)
            if ((x & 1) == 0) { /* entering sq: cross it, or undo flow that came in from u */
                if (bb_has(unfillable, sq) || through[sq] == 0) RING_VISIT(x + 1);
                for (int d = 0; d < DIR_NB; d++) {
                    int u = g->nb[sq][d];
                    if (u >= 0 && flow[u][(d + 2) & 3] > 0) RING_VISIT(2 * u + 1);
                }
            } else { /* leaving sq: the sink's squares end it; on to a free neighbour, or undo */
                if (bb_has(sink, sq)) {
                    end = x;
                    break;
                }
                for (int d = 0; d < DIR_NB; d++) {
                    int w = g->nb[sq][d];
                    if (w >= 0 && bb_has(open, w)) RING_VISIT(2 * w);
                }
                if (through[sq] > 0) RING_VISIT(x - 1);
            }
#undef RING_VISIT
        }
        if (end < 0) break;
        for (int y = end; prev[y] != RING_FROM_SOURCE; y = prev[y]) {
            int x = prev[y], a = x >> 1, b = y >> 1;
            if (a == b) {
                through[a] += (x & 1) == 0 ? 1 : -1;
            } else {
                int d = 0;
                while (g->nb[a][d] != b) d++;
                /* leaving a into b, or undoing flow b->a: one more unit from a to b */
                flow[a][d]++;
                flow[b][(d + 2) & 3]--;
            }
        }
        gaps++;
    }
    for (int sq = 0; carried && sq < n; sq++)
        if (through[sq] > 0) *carried |= bb_sq(sq);
    return gaps;
}

/* Reads "name=value" pairs separated by spaces, commas or newlines into w. */
bool eval_weights_parse(struct eval_weights *w, const char *text, char *err, size_t errlen) {
    struct eval_weights r = *w;
    const char *s = text;
    while (*s) {
        s += strspn(s, " ,\t\r\n");
        if (!*s) break;
        size_t len = strcspn(s, " ,\t\r\n");
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(len < 63 ? len : 63), s);
        char *eq = strchr(tok, '=');
        char *end = NULL;
        long val = eq ? strtol(eq + 1, &end, 10) : 0;
        if (!eq || !end || *end || end == eq + 1 || val < -100000 || val > 100000) {
            snprintf(err, errlen, "evaluation weight '%s': expected name=integer", tok);
            return false;
        }
        *eq = 0;
        bool found = false;
#define EVAL_SET(name, def)                                                                        \
    if (strcmp(tok, #name) == 0) {                                                                 \
        r.name = (int)val;                                                                         \
        found = true;                                                                              \
    }
        EVAL_WEIGHT_LIST(EVAL_SET)
#undef EVAL_SET
        if (!found) {
            snprintf(err, errlen, "unknown evaluation weight '%s'", tok);
            return false;
        }
        s += len;
    }
    *w = r;
    return true;
}
