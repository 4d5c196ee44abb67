/*
 * The opening book's position key: a hash defined by the book format (docs/book.md), not the
 * engine's Zobrist keys, so that books stay valid whatever the search's tables become.
 *
 * The key of a position is FNV-1a 64 over its canonical bytes: the board size n, the side to
 * move (0 attackers, 1 defenders), then one byte per square in index order (rank * n + file, a1
 * first: 0 empty, 1 attacker, 2 defender, 3 king, 4 commander, 5 knight; plus 8 on the square
 * of a berserker, the piece that must move again). A position and its images under the
 * symmetries the variant allows (engine/symmetry.h) are one book entry: the book keys the image
 * with the smallest key (the canonical image; the lowest symmetry number on a tie), and stores
 * moves as they are played on that image. A canonical image may be symmetric itself (the start
 * position is, under all 8): then moves that are images of each other under those symmetries
 * are one book move, stored as the smallest move code among them (move code = from + 128 * to).
 */
#ifndef HNEFI_BOOK_KEY_H
#define HNEFI_BOOK_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/position.h"

/* A position seen through the book's eyes: its key and the way to the canonical image. */
struct book_canon {
    uint64_t key;  /* the key of the canonical image */
    int sym;       /* the symmetry that maps the position onto the canonical image */
    unsigned stab; /* the allowed symmetries that map the canonical image onto itself */
    int size;      /* board size */
};

/* FNV-1a 64 of len bytes, continuing from h (start with BOOK_FNV_BASIS). */
uint64_t book_fnv(uint64_t h, const void *data, size_t len);

#define BOOK_FNV_BASIS 0xcbf29ce484222325ULL

/* Returns the key of a position as it stands (no symmetry applied). */
uint64_t book_key_plain(const struct position *p);

/* Finds the canonical image of p among the symmetries in allowed (a bit set, bit 0 set). */
void book_canon(const struct position *p, unsigned allowed, struct book_canon *out);

/* Maps a move played in the position to the book move (canonical orientation and form). */
move_t book_move_to_book(const struct book_canon *c, move_t m);

/* Maps a book move back to a move in the position. */
move_t book_move_from_book(const struct book_canon *c, move_t m);

#endif
