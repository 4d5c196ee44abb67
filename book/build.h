/*
 * A book being made or changed: positions in a hash table keyed by the book key (book/key.h),
 * each with a growing list of moves, and what turns it into a struct book.
 *
 * Games add their counts: every (position, move) a game plays up to the ply limit counts the
 * game once, with its result (a game that plays the same move from the same position twice
 * counts once there). Books add theirs (merging): counts are summed and the score of the deeper
 * search is kept. book_builder_backup gives every position reachable from the start through
 * book moves its minimax value (docs/book.md: back-up), and book_builder_finish drops what is
 * below the game threshold, sets the weights and sorts.
 *
 * A node's moves are kept in the canonical orientation; its flags say its side to move and
 * whether it was searched. The back-up's results are in value/has_value/vdepth, valid after
 * book_builder_backup until a node or move changes. A position that was never searched has a
 * value only when one of its moves is a forced win: its other moves were never looked at.
 */
#ifndef HNEFI_BOOK_BUILD_H
#define HNEFI_BOOK_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book/book.h"

/* One position of a book being made. */
struct book_node {
    uint64_t key;
    struct book_move *moves;
    uint16_t n, cap;
    uint16_t flags; /* BOOK_POS_* */
    bool used;
    /* the back-up */
    bool has_value;
    uint8_t state; /* during a back-up: 0 not seen, 1 on the path, 2 done */
    uint8_t vdepth;
    int16_t value; /* for the side to move */
};

struct book_builder {
    struct variant v;
    unsigned syms;
    struct book_node *slots;
    size_t cap, count;
    uint64_t games; /* games added */
    uint64_t run;   /* the last expansion run folded in */
    struct tafl_game *scratch;
};

/* Starts an empty book for variant v; false if out of memory. */
bool book_builder_init(struct book_builder *bb, const struct variant *v);

/* Frees everything the builder holds. */
void book_builder_free(struct book_builder *bb);

/* Returns the node of key (made, with side to move side, if create); NULL if none or no memory. */
struct book_node *book_builder_node(struct book_builder *bb, uint64_t key, int side, bool create);

/* Returns the move m (canonical) of a node (made if create); NULL if none or no memory. */
struct book_move *book_builder_move(struct book_node *node, move_t m, bool create);

/*
 * Counts one game from the variant's start position: its first plies (at most max_ply; 0: all)
 * under the book's rules, with its result (enum result; RESULT_NONE for an unfinished game). A
 * ply the book's rules refuse, or one after they end the game, ends the count there. Returns
 * the plies counted, -1 if out of memory.
 */
int book_builder_add_game(struct book_builder *bb, const move_t *moves, int n, int result,
                          int max_ply);

/* Adds a book's positions and moves (counts summed, the deeper score kept); false with the
   reason in err if out of memory, a position would have more than MAX_MOVES moves, or a
   move's count of games would pass 32 bits. */
bool book_builder_add_book(struct book_builder *bb, const struct book *b, char *err, size_t errlen);

/* Sets the minimax value of every position reachable from the start through book moves. */
void book_builder_backup(struct book_builder *bb);

/*
 * Makes the book: drops the moves with fewer than min_games games that were never searched and
 * the positions left without moves, backs up, sets the weights, and sorts. False with a reason
 * in err (nothing left, out of memory).
 */
bool book_builder_finish(struct book_builder *bb, uint32_t min_games, struct book *out, char *err,
                         size_t errlen);

/* Returns the value of a move for the side to move after a child's value (one ply further). */
int book_negate(int child_value);

#endif
