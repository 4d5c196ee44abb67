/*
 * An exact tafl solver: can the side to move force a win within N plies, and if so, how fast and
 * with which first moves?
 *
 * It does not use the search's heuristics (no evaluation, no pruning, no reductions): it is a
 * depth-limited AND-OR search over every legal move. At an OR node the solving side is to move
 * and one move that wins suffices; at an AND node the other side is to move and every reply must
 * lose. A win is a game end in the solving side's favour by the board rules (make_move's result:
 * escape, king captured, immobile king, encirclement, exit fort), or the other side left without
 * a legal move when the variant's no_moves rule makes that a loss. Plies count both sides' moves:
 * a win in 3 is move, reply, winning move, so the side to move wins only in an odd number of
 * plies (1, 3, 5, 7, 9).
 *
 * Repetition is ignored: a position carries no history, and the variant's repetition rule (and
 * the moves the illegal_* rules ban) play no part inside the solver. A line that repeats a
 * position is searched like any other.
 *
 * Speed comes from exactness-preserving devices only:
 *   - an exact test for a win in one move (the last OR ply) that makes only the moves that can
 *     win: escapes and captures of the king from the engine's threat tests; for an encirclement
 *     only the moves onto one shortest path from the king to the edge (every ring must cut it);
 *     for an exit fort only king moves onto the edge and, with the king on the edge, the men's
 *     moves onto one path from the king to the nearest attacker or beside that attacker; for a
 *     side left without a move only when the other side might really run out of moves;
 *   - at an AND node the other side's own win in one is looked for first (it refutes at once);
 *   - a transposition table keyed by (Zobrist key, solving side), each entry holding the smallest
 *     number of remaining plies proved a win and the largest proved no win, and the move that won
 *     or refuted: results are monotone in the plies, so one entry serves every depth;
 *   - move ordering: the table's move, two killer moves per remaining depth (the moves that won,
 *     or refuted, there before), then moves near the king.
 * Results are exact (up to a collision of 64-bit Zobrist keys, as in any table) whatever the
 * table holds: it stores only proved facts, and it is emptied when a position of other rules
 * comes, so the answers do not depend on the table's size or on what was solved before; the
 * node counts do.
 *
 * A node is one position the solver makes with make_move (trial moves of the win-in-one tests
 * included; the engine's king-capture test makes a few of its own, not counted).
 */
#ifndef HNEFI_SEARCH_SOLVER_H
#define HNEFI_SEARCH_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/position.h"

enum {
    SOLVER_MAX_PLIES = 15, /* the deepest question the solver takes; 9 is the practical limit */
};

/* What a solve proved. */
enum solve_status {
    SOLVE_NO_WIN,  /* no forced win within the plies asked */
    SOLVE_WIN,     /* a forced win; plies says how fast */
    SOLVE_UNKNOWN, /* the node limit stopped the solve first */
};

/* The limits of one solve. */
struct solve_limits {
    int plies;          /* look for wins within this many plies (1..SOLVER_MAX_PLIES) */
    uint64_t max_nodes; /* stop with SOLVE_UNKNOWN after about this many nodes; 0: no limit */
    bool want_line;     /* also find a principal line and the kind of win at its end */
};

/* What a solve found. */
struct solve_result {
    enum solve_status status;
    bool game_over; /* the position is already decided by the board rules: nothing to solve */
    int plies;      /* SOLVE_WIN: the smallest number of plies of a forced win */
    int proved;     /* the largest odd number of plies proved to hold no win (-1: none) */
    int nmoves;     /* SOLVE_WIN: every first move that forces the win in exactly `plies` */
    move_t moves[MAX_MOVES]; /* in the order movegen_list lists them */
    int kind;                /* SOLVE_WIN with want_line: enum end_reason at the line's end */
    int line_len;            /* SOLVE_WIN with want_line: the principal line */
    move_t line[SOLVER_MAX_PLIES];
    uint64_t nodes;
};

struct solver;

/* Creates a solver with a table of about hash_mib MiB (at least one bucket); NULL if out of
   memory. */
struct solver *solver_new(size_t hash_mib);

/* Frees a solver. */
void solver_free(struct solver *s);

/* Empties the table and the killer moves. */
void solver_clear(struct solver *s);

/*
 * Solves p: the smallest odd number of plies up to lim->plies in which the side to move forces a
 * win, with all first moves that force it that fast. Along the principal line (want_line) the
 * winner takes the first fastest win in move order and the loser the reply that holds out
 * longest (the first such).
 */
void solver_solve(struct solver *s, const struct position *p, const struct solve_limits *lim,
                  struct solve_result *out);

/*
 * Tells whether the side to move forces a win within plies (odd or even; an even number means the
 * odd one below it). Returns SOLVE_UNKNOWN if max_nodes (0: no limit) ran out first; *nodes
 * (if not NULL) gets the nodes used.
 */
enum solve_status solver_wins_within(struct solver *s, const struct position *p, int plies,
                                     uint64_t max_nodes, uint64_t *nodes);

/*
 * Returns a move of the side to move that wins at once (the board rules, or the other side left
 * without a legal move when that loses), or MOVE_NONE: exact, and cheap where no such move can
 * exist.
 */
move_t solver_win_in_one(const struct position *p);

/* Tells whether the side to move has a legal move (repetition ignored). */
bool solver_has_move(const struct position *p);

/* Returns the record word of an end reason ("escape", "king_captured", "encircled", ...). */
const char *solver_kind_name(int kind);

#endif
