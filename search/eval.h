/*
 * Static evaluation of tafl positions, in one place with its weights in one table.
 *
 * The score is in "centi-men" (100 = about one man) from the point of view of the side to move.
 * Every term is computed for the defenders and negated for the attackers, so a table of weights
 * (struct eval_weights) says everything the evaluation knows. Weights are read as "name=value"
 * pairs by eval_weights_parse; `hnefi tune` fits them to game results (docs/tuning.md). The
 * corner terms apply only to corner-escape variants, the blocks near the corners only on boards
 * of 9x9 and more.
 */
#ifndef HNEFI_SEARCH_EVAL_H
#define HNEFI_SEARCH_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/position.h"

/* The evaluation's weights; the X-macro lists each as (name, default). */
#define EVAL_WEIGHT_LIST(X)                                                                        \
    X(attacker, 100)            /* each attacker man (counts for the attackers) */                 \
    X(defender, 200)            /* each defender man */                                            \
    X(escape_in_two, 260)       /* the king could reach an escape square in two moves */           \
    X(escape_routes_two, 60)    /* each further escape square reachable in two moves */            \
    X(escape_in_three, 70)      /* the king needs three moves to escape */                         \
    X(king_mobility, 4)         /* each square the king can move to */                             \
    X(corner_guard, -200)       /* each attacker next to a corner, 9x9 and up (attackers) */       \
    X(small_corner_guard, -128) /* the same on smaller boards (Brandubh) */                        \
    X(king_attackers, 25)       /* each attacker beside the king (attackers) */                    \
    X(king_guards, 8)           /* each defender beside the king */                                \
    X(edge_king, 40)            /* the king on the edge, corner-escape variants */                 \
    X(tempo, 10)                /* the side to move */                                             \
    X(corner_diag, 120)         /* each attacker on b2 and its mirrors (attackers) */              \
    X(corner_edge2, 20)         /* each attacker on a3/c1 and their mirrors (attackers) */         \
    X(corner_ring3, 108)        /* each attacker on b3/c2 and their mirrors (attackers) */         \
    X(king_corner_dist, 18)     /* each step from the king to its nearest corner (attackers) */    \
    X(king_edge_reach, 16)      /* each edge square of the king's region, attackers as walls */    \
    X(king_sealed, 532)         /* no corner in the king's region (attackers) */

struct eval_weights {
#define EVAL_FIELD(name, def) int name;
    EVAL_WEIGHT_LIST(EVAL_FIELD)
#undef EVAL_FIELD
};

/* The built-in weights. */
extern const struct eval_weights eval_default_weights;

/* Evaluates p from the side to move's point of view. */
int eval_position(const struct position *p, const struct eval_weights *w);

/* Returns how many empty squares the attackers must still fill (at most cap) to shut the pieces
   of `shut` (the defenders and the king, for an encirclement) away from the edge: the gaps of
   an encircling ring; cap when one of them stands on the edge. */
int eval_ring_gaps(const struct position *p, bb_t shut, int cap);

/* eval_ring_gaps, and in *carried (if not NULL) the squares a maximum flow from `shut` to the
   edge passes through, one path a gap: only filling one of them can close a gap (a square no
   path uses leaves that flow, and so the count, as it was). */
int eval_ring_flow(const struct position *p, bb_t shut, int cap, bb_t *carried);

/* eval_ring_flow with the paths ending on the squares of `sink` instead of the edge, and the
   squares of `keep` (besides `shut`, the throne and the corners) not to be filled; cap when a
   piece of `shut` stands on `sink`. */
int eval_cut_flow(const struct position *p, bb_t shut, bb_t keep, bb_t sink, int cap,
                  bb_t *carried);

/* Returns how many empty squares the attackers must still fill (at most cap) so that no path of
   squares free of attackers leads the king to a corner, his men left standing (0 where the king
   escapes by the edge, not the corners): the corners' seal. */
int eval_corner_gaps(const struct position *p, int cap);

/* Reads "name=value" pairs separated by spaces, commas or newlines into w. */
bool eval_weights_parse(struct eval_weights *w, const char *text, char *err, size_t errlen);

#endif
