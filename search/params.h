/*
 * The search's tunable numbers: pruning and reduction switches, depths and margins, in one
 * table, so that a change of one of them is tested in self-play without a rebuild (player key
 * `param.NAME=V`, `hnefi analyze --param NAME=V`) and a change of default is one line here.
 *
 * Each parameter is listed as (name, default, least, greatest). A depth limit of 0 switches its
 * technique off. Margins are in centi-men, the evaluation's unit (search/score.h).
 */
#ifndef HNEFI_SEARCH_PARAMS_H
#define HNEFI_SEARCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

/* The parameters; the X-macro lists each as (name, default, least, greatest). */
#define SEARCH_PARAM_LIST(X)                                                                       \
    X(rfp_depth, 6, 0, 16)     /* reverse futility: prune a node up to this depth (0: off) */      \
    X(rfp_margin, 80, 0, 2000) /* ... when its evaluation beats beta by this much a ply */         \
    X(rfp_max, 1000, 0, 30000) /* ... and its size is below this (0: any): find decided ends */    \
    X(rfp_near, 0, 0, 4)       /* ... nor after a move landing this near the king (0: off) */      \
    X(rfp_near_side, 3, 1, 3)  /* ... at the nodes of the attackers (1), defenders (2), either */  \
    X(rfp_near_edge, 0, 0, 5)  /* ... with the king nearer the edge than this (0: anywhere) */     \
    X(rfp_size, 0, 0, 100)     /* ... the margin grows by this percentage of its size */           \
    X(rfp_edge, 1, 0, 3)       /* ... not with the king on the edge and (1) attackers, (2)         \
                                  defenders, (3) either to move (0: always) */                     \
    X(rfp_edge_def, 1, 0, 4)   /* ... with at least this many defenders beside him */              \
    X(rfp_edge_zone, 0, 0, 4)  /* ... counted within this many steps of him instead (0: beside) */ \
    X(rfp_edge_near, 1, 0, 1)  /* ... nor with him one step from the edge (1) */                   \
    X(rfp_king, 0, 0, 3)       /* ... nor, where two men take the king and he is by the edge, at   \
                                  the nodes of the attackers (1), defenders (2) or either (3) */   \
    X(rfp_mob, 0, 0, 100)      /* ... nor at any node while the defenders have at most this many   \
                                  moves (0: off): a squeeze to no moves */                         \
    X(rfp_men_pct, 0, 0, 100)  /* ... nor while the defenders' men besides the king are fewer      \
                                  than this percentage of those they start with (0: off) ... */    \
    X(rfp_men_side, 3, 1, 3)   /* ... at the nodes of the attackers (1), defenders (2), either */  \
    X(rfp_ring, 0, 0, 40)      /* ... nor at the defenders' nodes, below even, while the ring that \
                                  would shut them in has at most this many gaps (0: off) */        \
    X(rfp_held, 0, 0, 1)       /* ... nor at the defenders' nodes while their king, without a      \
                                  step, has 2+ attackers and a defender beside him (0: off) */     \
    X(lmp_depth, 3, 0, 16)     /* late-move pruning: skip late quiet moves up to this depth */     \
    X(lmp_base, 8, 0, 256)     /* ... after base + depth^2 * lmp_scale / 8 moves */                \
    X(lmp_scale, 8, 0, 256)                                                                        \
    X(prune_filter, 1, 0, 1)    /* prune by geometry unmade, before testing threats made */        \
    X(fort_filter, 1, 0, 1)     /* ... but a defender move near a king by the edge is made */      \
    X(prune_guard, 0, 0, 2)     /* no such pruning: the king on (1) or a move from (2) the edge */ \
    X(fut_depth, 0, 0, 16)      /* futility: skip quiet moves up to this depth ... */              \
    X(fut_margin, 150, 0, 2000) /* ... when evaluation + margin a ply cannot reach alpha */        \
    X(stage_depth, 1, 0, 64)    /* table move and killers tried before listing, to this depth */   \
    X(hist_malus, 1, 0, 1)      /* lower the history of the quiet moves tried before a cutoff */   \
    X(cont_hist, 0, 0, 1)       /* order quiet moves by the continuation history too (with         \
                                   hist_malus) */                                                  \
    X(lmr_log, 0, 0, 1)         /* reductions grow with log(depth) x log(move number) */           \
    X(lmr_div, 250, 50, 1000)   /* ... divided by lmr_div / 100 */                                 \
    X(lmr_hist, 0, 0, 1 << 20)  /* a late move reduced less by its history / this (0: off) */      \
    X(lmr_root_edge, 0, 0, 3)   /* none at the root by an edge king, the attackers' (1), the       \
                                   defenders' (2) or either (3) */                                 \
    X(lmr_fort, 0, 0, 5)        /* none of a defender move landing within this many steps of a     \
                                   king by the edge, where an exit fort may start (0: off) ... */  \
    X(lmr_fort_ply, 0, 0, 8)    /* ... at the root and the defenders' nodes up to this ply */      \
    X(partial_root, 1, 0, 1)    /* a better root move of an iteration cut short is played */       \
    X(tm_stable, 1, 0, 1)       /* on a clock, a settled best move stops early, a changing one or  \
                                   a falling score searches on (0: the plain share) */             \
    X(se_depth, 0, 0, 32)       /* extend a singular table move from this depth (0: off) */        \
    X(se_margin, 3, 0, 200)     /* ... the rest this much a ply below its score */                 \
    X(iir_depth, 0, 0, 16)      /* a node without a table move from this depth searches 1 less */  \
    X(corr_king, 0, 0, 400)     /* correction history: the static evaluation gains this share (%)  \
                                   of the error found at nodes of the same king area (0: off) */   \
    X(corr_mat, 0, 0, 400)      /* ... and this share of the error at the same count of men */     \
    X(corr_qs, 0, 0, 1)         /* ... in quiescence's evaluations too */                          \
    X(qs_captures, 1, 0, 1)     /* quiescence searches capturing moves too */                      \
    X(qs_no_moves, 1, 0, 1)     /* quiescence sees a side left without a move (it has lost) */     \
    X(ring_men, 12, 0, 24)      /* no reduction of an attacker move that fills a gap of the        \
                                   ring (encirclement) with at most this many men inside ... */    \
    X(ring_gaps, 6, 1, 40)      /* ... and at most this many gaps left (0 men: off) */             \
    X(sq_mob, 0, 0, 100)        /* nor one that takes a move from defenders with at most this      \
                                   many, where no move loses (0: off) */                           \
    X(mop, 0, 0, 1)      /* mop-up: with the defenders down to a few men, the attackers ... */     \
    X(mop_men, 2, 0, 24) /* ... (at most this many men besides the king) score ... */              \
    X(mop_base, 400, 0, 2000) /* ... this much more, ... */                                        \
    X(mop_gap, 20, 0, 500)    /* ... less this for each square to fill to shut them in, */         \
    X(mop_cap, 12, 1, 40)     /* ... the ring's counted up to this, ... */                         \
    X(mop_mob, 5, 0, 500)     /* ... less this for each square the king can move to, ... */        \
    X(mop_corner, 0, 0, 500)  /* ... less this for each square to fill to seal the corners, */     \
    X(mop_man, 0, 0, 500)     /* ... and plus this for each of the attackers' men */

struct search_params {
#define SEARCH_PARAM_FIELD(name, def, lo, hi) int name;
    SEARCH_PARAM_LIST(SEARCH_PARAM_FIELD)
#undef SEARCH_PARAM_FIELD
};

/* The built-in parameters. */
extern const struct search_params search_default_params;

/*
 * Reads "name=value" items (separated by spaces or commas) into p; on an unknown name or a value
 * out of its range, writes why into err and leaves p as it was.
 */
bool search_params_parse(struct search_params *p, const char *text, char *err, size_t errlen);

/* Writes the parameters that differ from the built-in ones as "name:value,..." ("" if none). */
void search_params_write_changed(const struct search_params *p, char *out, size_t outlen);

#endif
