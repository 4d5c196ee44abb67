/*
 * Match openings: short move sequences from a variant's start position, each played twice with
 * the sides swapped.
 *
 * An opening file has one opening per line, plies written as move text (`h1h3`, `h1-h3`,
 * `h1-h3xh4`) separated by spaces, starting from the variant's start position; blank lines and
 * lines starting with '#' are skipped. Every line is played out when it is loaded: an illegal
 * ply, or a line that ends the game, is refused with the line and ply named. Random openings are
 * N uniformly random legal plies drawn from a generator seeded from (seed, index) alone, redrawn
 * if they end the game, so the same seed always gives the same openings.
 */
#ifndef HNEFI_SELFPLAY_OPENINGS_H
#define HNEFI_SELFPLAY_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/variant.h"

enum { OPENING_MAX_PLIES = 256 };

struct opening {
    int n;
    move_t moves[OPENING_MAX_PLIES];
};

struct opening_set {
    int count;
    struct opening *items;
};

/* Reads openings from text (what names it in errors); false with a reason in err. */
bool openings_parse(struct opening_set *set, const struct variant *v, const char *text,
                    const char *what, char *err, size_t errlen);

/* Reads an opening file (plain or zstd); false with a reason in err. */
bool openings_load(struct opening_set *set, const struct variant *v, const char *path, char *err,
                   size_t errlen);

/* Frees a set's openings. */
void openings_free(struct opening_set *set);

/* Makes opening number index of plies random plies for seed; false if none could be found. */
bool openings_random(struct opening *o, const struct variant *v, int plies, uint64_t seed,
                     uint64_t index);

/* Returns a well-mixed 64-bit value of x (splitmix64), the generator behind every random draw. */
uint64_t openings_mix(uint64_t x);

#endif
