/*
 * Growing a book by search (docs/book.md: expansion): best-first drop-out expansion with
 * minimax back-up, on several threads, resumable after a kill.
 *
 * Each round backs the book up (book/build.h), then walks it from the start position in order
 * of a line's cost: the centi-men given away by every move of the line that is not its
 * position's best (best minus the move's value; a move from games that the search did not score
 * counts as the worst scored move there) plus ply_cost per ply. The cheapest positions
 * not searched yet (book positions built from games, or positions one scored move beyond the
 * book) are searched, one per thread, each for the same nodes or time with `width` lines
 * (MultiPV; width times the symmetries that map a symmetric position onto itself, so that width
 * different book moves can come); their moves, scores and depths join the book. Positions whose
 * value is a forced
 * result are not looked beyond. The searches see the line from the start position, so the
 * repetition rules apply to them as in a game.
 *
 * Every searched position is appended to BOOK.journal (a zstd frame, synced) before it joins the
 * book in memory; the book file is replaced only at the end, through a temporary file renamed
 * over it, and then the journal is removed. A run killed at any point is resumed by running the
 * same command again: the journal's positions are folded in once, a half-written last frame is
 * dropped, and the run goes on to its target.
 */
#ifndef HNEFI_BOOK_EXPAND_H
#define HNEFI_BOOK_EXPAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/search.h"

/* Where an expansion run stands. */
struct book_expand_status {
    int done;         /* positions searched in this run, the resumed ones included */
    int resumed;      /* of those, the ones read back from the journal */
    int total;        /* the run's target */
    size_t positions; /* positions in the book now */
    uint64_t nodes;   /* nodes searched by this process */
    double seconds;   /* since this process started the run */
    int ply;          /* ply of the position searched last */
    bool root_known;  /* the start position has a value: */
    int root_value;   /* for its side to move */
};

/* How to expand. */
struct book_expand_config {
    uint64_t nodes;            /* per searched position; 0: time_ms */
    int64_t time_ms;           /* per searched position, when nodes is 0 */
    int positions;             /* positions to search in this run */
    int threads;               /* searches at once, one thread each */
    int width;                 /* lines (MultiPV) per searched position */
    int ply_cost;              /* centi-men a ply adds to a line's cost */
    int max_ply;               /* no position deeper than this is searched */
    size_t hash_mib;           /* table of each search */
    struct search_options opt; /* the evaluation and the rest (threads and multipv are set here) */
    void (*on_progress)(const struct book_expand_status *st, void *ctx);
    void *ctx;
};

/* Sets the defaults: 100000 nodes, 100 positions, 1 thread, 3 lines, 10 per ply, 60 plies. */
void book_expand_default(struct book_expand_config *cfg);

/*
 * Runs (or resumes) an expansion of the book at path. note gets what a resume did (empty
 * otherwise); false with a reason in err (the book and the journal are then as they were, or
 * the journal holds what was searched).
 */
bool book_expand(const char *path, const struct book_expand_config *cfg,
                 struct book_expand_status *st, char *note, size_t notelen, char *err,
                 size_t errlen);

/* Writes the journal's name for the book at path. */
void book_journal_path(const char *path, char *out, size_t outlen);

#endif
