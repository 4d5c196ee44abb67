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
