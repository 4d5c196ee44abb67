/*
 * The opening book in the front ends: the shipped books with the switch that says whether an
 * engine uses each by default, finding a book by name, and showing a position's book moves.
 *
 * The switch. hnefi as an engine (the three protocols) uses the shipped book of the variant in
 * play, without being told, only where cli_book_defaults marks it on. Each is off until the
 * strength measurement of docs/book.md (default books) shows that it helps; turning one on is
 * changing its `on` field, and nothing else.
 *
 * Names. A book is named by a path, by a bare file name looked up here and then in the data
 * directory (as cli_data_file does), or by the word `default`: the shipped book of the variant.
 */
#ifndef HNEFI_TOOLS_CLI_BOOK_H
#define HNEFI_TOOLS_CLI_BOOK_H

#include <stdbool.h>
#include <stdio.h>

#include "book/book.h"

/* A shipped book: the variant it is for, its file in the data directory, the switch. */
struct cli_book_default {
    const char *variant;
    const char *file;
    bool on; /* an engine uses it when no book is named */
};

/* Returns the shipped book of a variant (matched by name), or NULL if it has none. */
const struct cli_book_default *cli_book_default_of(const struct variant *v);

/*
 * Finds the file a book name stands for (for the variant v when the name is `default`); false
 * with a reason in err.
 */
bool cli_book_path(const char *name, const struct variant *v, char *out, size_t outlen, char *err,
                   size_t errlen);

/* Finds and reads a book by name; false with a reason in err (b unchanged). */
bool cli_book_load(struct book *b, const char *name, const struct variant *v, char *err,
                   size_t errlen);

/* Reads "best" or "weighted"; false if it is neither. */
bool cli_book_variety(const char *text, enum book_variety *out);

/* Writes a book score for people: "+0.23 (depth 12)", "win in 5", "-" when never searched. */
void cli_book_score_text(const struct book_move *m, char *out, size_t outlen);

/*
 * Prints the book's moves for the current position of game, best first, one line each (games,
 * results, score, weight), with a line before them that says what the book holds there; moves
 * the game's history forbids or that would repeat into a loss are marked.
 */
void cli_book_print(FILE *out, const struct book *b, const struct tafl_game *game);

#endif
