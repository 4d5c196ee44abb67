/*
 * Training data: the positions of self-play games with the mover's search score and the game's
 * final result, as fixed-size little-endian records in checksummed zstd frames, for tuning the
 * evaluation. docs/records.md is the reference; in short:
 *
 *   first frame, the file header: 64 bytes, then (version 2) the variant's rules string:
 *     0  8  magic "HNEFIDAT"        8  4  version (1 or 2)   12 4  record size
 *     16 4  board size             20 4  rules length R     24 32 variant name, NUL-padded
 *     56 8  0                      64 R  OpenTafl rules string (version 2; R = 0 in version 1)
 *   then one frame per game: a 16-byte game header (8 game number, 4 record count, 4 result)
 *   followed by that many records.
 *   Version 1 (boards up to 11x11 without special pieces), 40-byte records:
 *     0  8  attacker men, squares 0-63 (bit i = square i, a1 = 0, square = rank * size + file)
 *     8  8  attacker men, squares 64-127
 *     16 8  defender men, squares 0-63    24 8  defender men, squares 64-127
 *     32 1  king square                   33 1  side to move (0 attackers, 1 defenders)
 *     34 2  score, signed, side to move's view, centi-men (wins as in search.h)
 *     36 1  result: 0 attackers won, 1 defenders won, 2 draw
 *     37 1  flags: 1 = the score is a forced win or loss, 2 = the game was adjudicated
 *     38 2  ply
 *   Version 2 (boards beyond 11x11, or commanders, knights, jumps or berserk turns), with W =
 *   ceil(size * size / 64) words a set, 24 W + 12-byte records:
 *     0 8W attacker men     8W 8W defender men     16W 8W commanders and knights
 *     24W: 2 king square, 2 berserker square + 1 (0: none), 1 side, 1 result, 1 flags, 1 zero,
 *          2 score, 2 ply (each as in version 1)
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

enum {
    DATAGEN_HEADER = 64,       /* the fixed part of the file header */
    DATAGEN_HEADER_MAX = 4096, /* the header with its rules string, at most */
    DATAGEN_GAME_HEADER = 16,
    DATAGEN_RECORD = 40 /* a record of version 1 (datagen_record_size gives any variant's) */
};

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

/* Returns the format version hnefi writes v's training data in: 1 for boards up to 11x11
   without special pieces, 2 otherwise. */
int datagen_version_of(const struct variant *v);

/* Returns the size of one record of v's training data. */
size_t datagen_record_size(const struct variant *v);

/* Builds the file header frame for v into h (DATAGEN_HEADER_MAX bytes); returns its length, or
   0 if v's rules cannot be written down. */
size_t datagen_make_header(uint8_t *h, const struct variant *v);

/* Reads the variant name and rules string (empty in version 1) a data file's header names;
   false with a reason. */
bool datagen_file_names(const char *path, char *name, size_t namelen, char *rules, size_t ruleslen,
                        char *err, size_t errlen);

/* Sets *out to the variant a training-data file holds (built in by its name, or read from its
   rules string); false with a reason. */
bool datagen_file_variant(const char *path, struct variant *out, char *err, size_t errlen);

/*
 * Reads a training-data file and calls fn for each position (fn may be NULL); *games and
 * *positions get the counts. False with a reason on any damage.
 */
bool datagen_read(const char *path, const struct variant *v,
                  bool (*fn)(const struct datagen_pos *p, void *ctx), void *ctx, int64_t *games,
                  int64_t *positions, char *err, size_t errlen);

#endif
