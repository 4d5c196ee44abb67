/*
 * Training data: the positions of self-play games with the mover's search score and the game's
 * final result, as fixed-size little-endian records in checksummed zstd frames, for tuning the
 * evaluation. docs/records.md is the reference; in short:
 *
 *   first frame, the 64-byte file header:
 *     0  8  magic "HNEFIDAT"        8  4  version (1)        12 4  record size (40)
 *     16 4  board size             20 4  0                  24 32 variant name, NUL-padded
 *     56 8  0
 *   then one frame per game: a 16-byte game header (8 game number, 4 record count, 4 result)
 *   followed by that many 40-byte records:
 *     0  8  attacker men, squares 0-63 (bit i = square i, a1 = 0, square = rank * size + file)
 *     8  8  attacker men, squares 64-127
 *     16 8  defender men, squares 0-63    24 8  defender men, squares 64-127
 *     32 1  king square                   33 1  side to move (0 attackers, 1 defenders)
 *     34 2  score, signed, side to move's view, centi-men (wins as in search.h)
 *     36 1  result: 0 attackers won, 1 defenders won, 2 draw
 *     37 1  flags: 1 = the score is a forced win or loss, 2 = the game was adjudicated
 *     38 2  ply
 *
 * Only positions after the opening whose mover gave a score are written. The writer appends a
 * game's frame before the game's record line; on resume, data of a game without a record (the
 * last frame, when the writer was killed between the two) is cut off.
 */
#ifndef HNEFI_SELFPLAY_DATAGEN_H
#define HNEFI_SELFPLAY_DATAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "selfplay/referee.h"

enum { DATAGEN_HEADER = 64, DATAGEN_GAME_HEADER = 16, DATAGEN_RECORD = 40, DATAGEN_VERSION = 1 };

/* One training position, unpacked. */
struct datagen_pos {
    int64_t game;
    struct position pos; /* pieces, king square, side to move and key; no result */
    int score;
    int result; /* enum result */
    int flags, ply;
};

/*
 * Opens a training-data file for appending (writing its header if new). has_record tells
 * whether a game has a record; data of a game without one is cut off if it is the last frame,
 * refused otherwise. note describes what was cut off. Returns a descriptor or -1 with err.
 */
int datagen_open_append(const char *path, const struct variant *v,
                        bool (*has_record)(int64_t game, void *ctx), void *ctx, char *note,
                        size_t notelen, char *err, size_t errlen);

/* Appends one game's positions as a frame; false with a reason. */
bool datagen_write_game(int fd, const struct variant *v, const struct played_game *g, bool sync,
                        char *err, size_t errlen);

/* Reads the name of the variant a training-data file holds; false with a reason. */
bool datagen_variant_name(const char *path, char *name, size_t namelen, char *err, size_t errlen);

/* Returns the built-in variant a training-data file names; NULL with a reason. */
const struct variant *datagen_file_variant(const char *path, char *err, size_t errlen);

/*
 * Reads a training-data file and calls fn for each position (fn may be NULL); *games and
 * *positions get the counts. False with a reason on any damage.
 */
bool datagen_read(const char *path, const struct variant *v,
                  bool (*fn)(const struct datagen_pos *p, void *ctx), void *ctx, int64_t *games,
                  int64_t *positions, char *err, size_t errlen);

#endif
