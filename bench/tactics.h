/*
 * Tactics suites: positions with a known forced win (or a known absence of one), each proved by
 * the exact solver (search/solver.h), and what the engine's search makes of them.
 *
 * A suite is a tab-separated file (tests/data/tactics.tsv, tests/data/tactics-mined.tsv):
 *   1. variant name (a built-in variant; the suite's rules are its settings with repetition off)
 *   2. position (FEN, side to move included)
 *   3. result: `win` (the side to move forces a win) or `none` (it cannot within the suite's
 *      bound: 5 plies in tactics.tsv, 7 in the mined suite)
 *   4. plies: for `win`, the fewest plies of a forced win (odd); empty for `none`
 *   5. moves: for `win`, every first move that forces the win that fast, space-separated, sorted in
 *      byte order; empty for `none`
 *   6. source: where the position comes from (free text)
 *   7. kind (optional): for `win`, the end at the close of the solver's principal line (an end
 *      word: escape, king_captured, immobile_king, encircled, exit_fort, no_moves); for `none`,
 *      the win the side's tempting move would threaten (a move after which it would win at once
 *      if it could move again)
 * Lines starting with '#' and empty lines are comments. The search run (tactics_search) counts a
 * `win` line solved at the first iteration whose score is a win in exactly the line's plies, and
 * a `none` line passed when no iteration within the limits claims a win within the bound.
 */
#ifndef HNEFI_BENCH_TACTICS_H
#define HNEFI_BENCH_TACTICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/notation.h"
#include "search/search.h"
#include "search/solver.h"

enum {
    TACTICS_MOVES_MAX = 2048, /* the text of a move list */
    TACTICS_TEXT_MAX = 160,   /* a source or kind field */
};

/* One line of a suite. */
struct tactics_line {
    int lineno; /* 1-based, in its file */
    char variant[VARIANT_NAME_MAX];
    char fen[FEN_MAX];
    bool win;
    int plies;                     /* win: the fewest plies */
    char moves[TACTICS_MOVES_MAX]; /* win: the first moves, as written */
    char source[TACTICS_TEXT_MAX];
    char kind[TACTICS_TEXT_MAX]; /* empty when the file has no seventh column */
};

/* A whole suite in memory. */
struct tactics_suite {
    struct tactics_line *lines;
    int n;
};

/*
 * Reads the lines of a suite from text (modified in place: the tabs and newlines become NULs).
 * Returns false with err naming the line and field on the first bad line.
 */
bool tactics_parse(char *text, struct tactics_suite *out, char *err, size_t errlen);

/* Frees the lines of a suite. */
void tactics_suite_free(struct tactics_suite *s);

/*
 * Sets *v to the line's variant with repetition off and *p to its position; false with a reason
 * in err (unknown variant, bad FEN).
 */
bool tactics_position(const struct tactics_line *l, struct variant *v, struct position *p,
                      char *err, size_t errlen);

/* Writes moves as text sorted in byte order, space-separated (the suite's column 5). */
void tactics_moves_text(const move_t *moves, int n, int size, char *out, size_t outlen);

/*
 * Returns a tempting move of p, or MOVE_NONE: a move after which the side that made it would win
 * at once if it could move again (the first in move order); *kind gets that win's end reason.
 */
move_t tactics_tempting(const struct position *p, int *kind);

/* Tells whether p has a tempting move that threatens a win of this kind. */
bool tactics_tempting_kind(const struct position *p, int kind);

/*
 * Checks a line with the solver: a `win` line must be a forced win in exactly its plies with
 * exactly its moves (and its kind, if given); a `none` line must hold no forced win within
 * none_plies and have a tempting move (of its kind, if given). max_nodes bounds each solve (0: no
 * limit). Returns false with the difference in why; *nodes (if not NULL) gets the solver's nodes.
 */
bool tactics_verify(struct solver *sv, const struct tactics_line *l, int none_plies,
                    uint64_t max_nodes, char *why, size_t whylen, uint64_t *nodes);

/* What the engine's search did with one line. */
struct tactics_run {
    bool solved;     /* win: reported the win in exactly the plies; none: claimed no false win */
    bool wrong;      /* claimed a win the solver refutes (too short, or within a none bound) */
    int depth;       /* solved win: the depth of the first iteration that showed it; else the
                        last depth completed */
    uint64_t nodes;  /* the nodes searched up to that iteration (or in all) */
    int first_plies; /* the length of the first win the search reported (0: none) */
    int first_depth; /* the depth of the iteration that first reported a win (0: none) */
};

/*
 * Searches one line with opt until the win is shown (win lines), until none_depth is completed
 * (none lines), or until max_nodes: the table is cleared first, so every line is searched alike
 * and the result does not depend on the order. Returns false with err if the line does not load.
 */
bool tactics_search(struct search *s, const struct tactics_line *l,
                    const struct search_options *opt, uint64_t max_nodes, int none_plies,
                    int none_depth, struct tactics_run *out, char *err, size_t errlen);

/*
 * Prints the summary table of a suite's search runs as Markdown: one row per variant, kind and
 * plies (and one per variant for the none lines) with the count, how many were solved, the median
 * and largest depth and nodes, and how many needed more than plies + 2 depth; then a total row.
 */
void tactics_table(FILE *out, const struct tactics_suite *suite, const struct tactics_run *runs);

/*
 * Counts the win lines and, of those, the lines where the search reported a forced win of any
 * length (the one the line names, or a longer one) by the depth of the line's plies + 2: a
 * longer win found early still wins the game.
 */
void tactics_won_early(const struct tactics_suite *suite, const struct tactics_run *runs,
                       int *lines, int *won);

#endif
