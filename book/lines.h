/*
 * Book lines for tournaments: every line of book moves from the start position to a given
 * depth, each ending in a different position (symmetric images count as one), ranked so that
 * paired games start from positions that are close to even or often played.
 *
 * A line follows the book moves of positive weight that are legal, do not repeat into a loss or
 * a draw, and do not end the game. Its value is the book's value of its last position (the best
 * score there), or else the score of its last move, from the attackers' point of view. Balanced
 * lines are those whose value is known and within the margin, the most even first; otherwise
 * lines come by the games of their last move, the most played first.
 */
#ifndef HNEFI_BOOK_LINES_H
#define HNEFI_BOOK_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "book/book.h"

enum { BOOK_LINE_MAX = 64 };

/* One line: its moves from the start position, its value and games. */
struct book_line {
    int n;
    move_t moves[BOOK_LINE_MAX];
    bool known;     /* the value is known */
    int value;      /* for the attackers, centi-men */
    uint32_t games; /* of its last move */
    uint64_t key;   /* the book key of its last position */
};

/* What lines to make. */
struct book_lines_config {
    int plies;        /* the length of every line */
    int count;        /* lines wanted */
    bool balanced;    /* only lines whose value is within margin of even */
    int margin;       /* centi-men */
    size_t max_nodes; /* positions visited at most */
};

/*
 * Finds up to cfg->count lines of the book (see above) into a new array *out (free()) of *n
 * lines; *visited gets the positions walked and *capped whether max_nodes stopped the walk.
 * False with a reason in err.
 */
bool book_lines(const struct book *b, const struct book_lines_config *cfg, struct book_line **out,
                int *n, size_t *visited, bool *capped, char *err, size_t errlen);

#endif
