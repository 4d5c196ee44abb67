/*
 * Move ordering: the history of quiet moves that caused cutoffs, the killer moves per ply, and
 * the picker that hands out a node's moves best first.
 *
 * A move's ordering score, highest first: the table move (2^30); a king move onto an escape
 * square (2^29); a killer (2^22, the second 2^21) plus its history; otherwise its history
 * (at most 2^17, halved when it grows past that) plus 2^20 for a landing beside the king (the
 * attackers) and 2^18 for a landing beside an enemy piece (maybe a capture). Ties keep the order
 * of the move list, so the single-threaded search is deterministic.
 *
 * With the continuation history (search parameter cont_hist), history and killers also gain half
 * the sum of two more values, each within 2^16: how well the move (its piece, king or man, and
 * its square) did after the opponent's last move and after the side's own move before that
 * (each as piece and square). A quiet move's score then stays within 1.5 x 2^17, below 2^18.
 */
#ifndef HNEFI_SEARCH_MOVEPICK_H
#define HNEFI_SEARCH_MOVEPICK_H

#include <stdbool.h>

#include "engine/position.h"
#include "search/score.h"

enum { HISTORY_LIMIT = 1 << 17 }; /* a history value past this halves them all */

/* A move as the continuation history sees it: its piece (an attacker's man, a defender's man,
   the king) and its target square, as key = piece * BB_MAX_SQUARES + to; CONT_NONE: none known
   (the root, a pass, or the continuation history off), whose row of values stays zero. */
enum {
    CONT_PIECES = 3,
    CONT_KEYS = CONT_PIECES * BB_MAX_SQUARES,
    CONT_NONE = CONT_KEYS,
    CONT_LIMIT = 1 << 16, /* each value stays within this (gravity) */
};

/* One search thread's ordering memory: history by side, from and to; two killers per ply; the
   continuation history by the move one ply back (cont[0]) and two plies back (cont[1]). */
struct history {
    int table[SIDE_NB][BB_MAX_SQUARES][BB_MAX_SQUARES];
    move_t killers[SEARCH_MAX_PLY][2];
    int cont[2][CONT_KEYS + 1][CONT_KEYS];
};

/* Returns the continuation-history key of move m in p (see CONT_NONE). */
static inline int cont_key(const struct position *p, move_t m) {
    int piece = move_from(m) == p->king_sq ? 2 : p->side;
    return piece * BB_MAX_SQUARES + move_to(m);
}

/* What a node's move ordering knows, gathered once per node. */
struct order {
    const int (*history)[BB_MAX_SQUARES]; /* the side to move's history, by from and to */
    const int *cont[2]; /* the continuation history's rows of the last two moves, by key */
    bool use_cont;      /* either row is one of a move (not CONT_NONE) */
    int side;
    move_t tt_move, killer0, killer1;
    int king_sq;
    bb_t escapes;   /* escape squares */
    bb_t contact;   /* squares beside an enemy piece: maybe a capture */
    bb_t near_king; /* for the attackers, the squares beside the king */
};

/*
 * Hands out a node's moves best score first, in exactly the order of a selection sort that
 * swaps each pick into place (ties go to the earlier position in the array as it then stands).
 * The first picks scan the list; later ones use a tournament tree over the positions, so a node
 * that searches every move costs n log n instead of n * n.
 *
 * At depth 1 (up to the search's stage_depth) the table move and the killers are handed out
 * before the list is made, since most such nodes are cut by one of them. At depth 1 this keeps
 * the order exact: their scores outrank every other move (table move 2^30; killers at least 2^22
 * and 2^21, while history stays within 2^17 and the contact and king bonuses add 2^18 + 2^20;
 * escapes, 2^29, never reach the move loop), and below depth 1 only quiescence runs, which
 * leaves history and killers alone, so the list made afterwards scores as it would have before.
 * The picks already handed out are then replayed on the list, so the array stands as it would
 * have. Deeper, the staged moves' subtrees change the history, and the rest of the list is
 * ordered by the history as it then stands.
 */
struct picker {
    const struct position *p;
    const move_t *root_moves; /* at the root, the moves to search (else NULL) */
    int nroot;
    struct order o;
    bool listed;        /* the list is made */
    move_t staged[3];   /* handed out before the list: table move, killers */
    int nstaged, given; /* staged moves, and how many were handed out */
    move_t *moves;
    int *scores;
    int n, next;
    int size; /* leaves of the tree (a power of two), 0 before it is built */
    /* the best key below each tree node: score and position packed so that the larger key is
       the higher score, then the earlier position (leaf of position i at size + i) */
    int64_t key[2 * MAX_MOVES];
};

/* Forgets all history and killers (a new game). */
void history_clear(struct history *h);

/* Forgets the killers only (a new search). */
void history_clear_killers(struct history *h);

/* Records a quiet move m of p's side to move that caused a cutoff at depth, ply. */
void history_update(struct history *h, const struct position *p, move_t m, int depth, int ply);

/*
 * Records a cutoff by the quiet move m at depth, ply, as history_update does, but with history
 * values that move toward +-HISTORY_LIMIT ("gravity": a change shrinks as the value nears the
 * limit) instead of halving, and lowers each of the n quiet moves `tried` before m; the same in
 * the continuation history's rows of the keys prev[0] (the last move) and prev[1] (the one
 * before), unless CONT_NONE.
 */
void history_update_malus(struct history *h, const struct position *p, move_t m,
                          const move_t *tried, int n, int depth, int ply, const int prev[2]);

/* Returns the history part of quiet move m's ordering score at the picker's node (its history,
   and with the continuation history half the sum of that): what late-move reductions adjust by. */
static inline int picker_history(const struct picker *mp, move_t m) {
    const struct order *o = &mp->o;
    int from = move_from(m), to = move_to(m);
    int sc = o->history[from][to];
    if (o->use_cont) {
        int key = (from == o->king_sq ? 2 : o->side) * BB_MAX_SQUARES + to;
        sc += (o->cont[0][key] + o->cont[1][key]) >> 1;
    }
    return sc;
}

/*
 * Starts handing out the moves of node p at ply (into the caller's arrays moves and scores): at
 * the root (root_moves not NULL) exactly those; with stage (at depth 1) the table move and
 * killers that are legal come first; otherwise the list is made at once. prev holds the
 * continuation-history keys of the last move and the one before (CONT_NONE: not used). Returns
 * false when the node has no move.
 */
bool picker_init(struct picker *mp, const struct history *h, const struct position *p,
                 const move_t *root_moves, int nroot, move_t *moves, int *scores, move_t tt_move,
                 bool stage, int ply, const int prev[2]);

/* Returns the next move (MOVE_NONE when done) with its ordering score in *score. */
move_t picker_next(struct picker *mp, int *score);

#endif
