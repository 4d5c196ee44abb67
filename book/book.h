/*
 * The opening book in memory, its file, and probing it in play (docs/book.md has the format).
 *
 * A struct book holds the rules it was made under (the variant's name, its exact rules as
 * "key value" lines, the OpenTafl rules string), the symmetries it merges, and two arrays: the
 * positions sorted by key (each with the index of its first move and how many it has) and their
 * moves, each position's moves together and sorted by move code. Moves are stored as played on
 * the position's canonical image (book/key.h). A loaded book is read-only, so threads may share
 * it; probing is a binary search over the positions.
 *
 * Per move: the games that played it and their results (attacker wins, defender wins, draws;
 * unfinished games count in games only), a score for the side to move in centi-men with the
 * depth of the search behind it (depth 0: never searched; the score is then 0), whether that
 * score was backed up from the book's own positions (minimax over the book) rather than searched
 * here, and a weight for a random choice.
 *
 * Reading a book is all or nothing: a file that is empty, truncated, damaged, of another version
 * or of impossible contents is refused with the file and the reason, and the struct is left as
 * it was.
 */
#ifndef HNEFI_BOOK_BOOK_H
#define HNEFI_BOOK_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book/key.h"
#include "engine/tafl.h"

/* The bits of a square in a book file's move code: 7 on boards up to 11x11 (format version 1),
   9 beyond (version 2), whatever the build's own move_t (docs/book.md). */
static inline int book_square_bits(int size) {
    return size > 11 ? 9 : 7;
}

/* A move as a book file stores it on a board of this size: from | to << book_square_bits. */
static inline uint32_t book_move_pack(int size, move_t m) {
    return (uint32_t)move_from(m) | (uint32_t)move_to(m) << book_square_bits(size);
}

/* The build's move of a book file's move code on a board of this size. */
static inline move_t book_move_unpack(int size, uint32_t raw) {
    int bits = book_square_bits(size);
    return move_make((int)(raw & ((1u << bits) - 1)), (int)(raw >> bits));
}

/* The bytes of a move code in a book file: 2 (version 1), 4 (version 2). */
static inline int book_code_bytes(int size) {
    return size > 11 ? 4 : 2;
}

/* The format version of a book of this board size: 1 up to 11x11, 2 beyond. */
static inline int book_version_of(int size) {
    return size > 11 ? 2 : 1;
}

enum {
    BOOK_RULES_MAX = 1024,    /* the rules text */
    BOOK_OPENTAFL_MAX = 1024, /* the OpenTafl rules string */
    BOOK_HEADER_FIXED = 64,   /* bytes of the header before its strings */
    BOOK_POS_BYTES = 12,      /* one position record in the file */
    BOOK_MOVE_BYTES = 22,     /* one move record in the file, besides its move code */
    BOOK_MOVE_BACKED = 1,     /* book_move.flags: the score is backed up from the book */
    BOOK_POS_SEARCHED = 1,    /* book_pos.flags: searched by expansion */
    BOOK_POS_DEFENDERS = 2,   /* book_pos.flags: the defenders are to move */
    BOOK_SCORE_MAX = 32767,   /* scores are 16-bit */
    BOOK_SCORE_FORCED = 30000, /* a stored score is within ±this: ±(30000 - n) is a forced result */
    BOOK_MAX_BODY = 1u << 31, /* bytes of positions and moves a reader accepts */
};

#define BOOK_MAGIC "HNEFIBOK"

/* One book move. */
struct book_move {
    move_t move; /* on the canonical image */
    uint16_t weight;
    uint32_t games, attacker_wins, defender_wins, draws;
    int16_t score; /* for the side to move, centi-men (search/score.h); 0 when depth is 0 */
    uint8_t depth; /* of the search behind score; 0: no score */
    uint8_t flags; /* BOOK_MOVE_BACKED */
};

/* One book position. */
struct book_pos {
    uint64_t key;
    uint32_t first; /* index of its first move */
    uint16_t count; /* its moves, at least one */
    uint16_t flags; /* BOOK_POS_SEARCHED, BOOK_POS_DEFENDERS */
};

struct book {
    char name[VARIANT_NAME_MAX];      /* the variant's name */
    char rules[BOOK_RULES_MAX];       /* the exact rules: "size N\nstart F\n" and every option */
    char opentafl[BOOK_OPENTAFL_MAX]; /* the OpenTafl rules string, for other programs */
    int size;                         /* board size */
    unsigned syms;                    /* the symmetries merged (bit k: symmetry k) */
    uint64_t games;                   /* games the book was built from */
    uint64_t run;                     /* the id of the last expansion run folded in, 0: none */
    uint64_t body_hash;               /* FNV-1a 64 of the positions and moves as stored */
    size_t npos, nmoves;
    struct book_pos *pos;
    struct book_move *moves;
    struct variant variant; /* the rules, rebuilt from the rules text */
};

/*
 * Writes the exact rules of v as the book stores them ("size", "start", every option; the
 * shieldwall's sub-options as "no" when there is no shieldwall, since they change nothing then).
 */
bool book_rules_text(const struct variant *v, char *out, size_t outlen);

/*
 * Tells whether the book was made under the rules of v; if not, why names the first difference
 * ("the book is for brandubh: size 7, the rules in play have size 11").
 */
bool book_fits(const struct book *b, const struct variant *v, char *why, size_t whylen);

/* Reads a book file; false with "<path>: <reason>" in err, b unchanged. */
bool book_load(struct book *b, const char *path, char *err, size_t errlen);

/* Returns the board size a book file's header names (whether or not this build plays it), or 0
   if the file is not a readable book. */
int book_file_board(const char *path);

/*
 * Reads a book from the bytes of a file, accepting at most max_body bytes of positions and
 * moves; false with the reason in err, b unchanged.
 */
bool book_parse(struct book *b, const uint8_t *data, size_t len, size_t max_body, char *err,
                size_t errlen);

/* Encodes a book as the bytes of its file (level: zstd's, 1-19); NULL with a reason in err. */
uint8_t *book_encode(const struct book *b, int level, size_t *len, char *err, size_t errlen);

/*
 * Writes a book to path through a temporary file renamed over it, so path always holds either
 * the old book or the whole new one; false with a reason in err.
 */
bool book_save(const struct book *b, const char *path, int level, char *err, size_t errlen);

/* Frees a book's arrays (the struct may be reused). */
void book_free(struct book *b);

/* Returns the position with the given key, or NULL. */
const struct book_pos *book_find(const struct book *b, uint64_t key);

/* Returns the canonical form of p under the book's symmetries. */
void book_canon_of(const struct book *b, const struct position *p, struct book_canon *c);

/* A probe: the book's moves for a position, as moves of that position. */
struct book_hit {
    struct book_canon canon;
    const struct book_pos *pos; /* NULL: not in the book */
    int n;                      /* moves */
    move_t moves[MAX_MOVES];    /* as moves of the probed position */
    const struct book_move *info[MAX_MOVES];
};

/* Looks p up; returns the number of book moves (0 if the position is not in the book). */
int book_probe(const struct book *b, const struct position *p, struct book_hit *hit);

/* How a move is chosen in play. */
enum book_variety { BOOK_BEST, BOOK_WEIGHTED };

/* How a front end uses its book. */
struct book_play {
    enum book_variety variety;
    int max_ply; /* no book move once the game has this many plies (0: no limit) */
};

/*
 * Chooses a book move for the current position of game: only moves that are legal now and
 * that neither lose nor draw by repetition, and only if the book fits the game's rules.
 * BOOK_BEST takes the best score (then weight, then games); BOOK_WEIGHTED draws among the moves
 * of positive weight in proportion to it, using draw (a random 64-bit number). Returns
 * MOVE_NONE when the book has nothing; *info (if not NULL) gets the move's record.
 */
move_t book_choose(const struct book *b, const struct tafl_game *game, const struct book_play *play,
                   uint64_t draw, const struct book_move **info);

/* Tells whether the move m, played now, would end the game by repetition in a loss or draw. */
bool book_repetition_trap(const struct tafl_game *game, move_t m);

#endif
