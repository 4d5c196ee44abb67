/*
 * The bitboard: one bit per square. The 128-bit bitboard holds boards up to 11x11 (121 squares);
 * the wide one, compiled with HNEFI_WIDE (the engine's second build), boards up to 19x19 (361
 * squares) in a vector of 64-bit words. Both offer the same named operations below, so the rules,
 * move generation, search and evaluation are one source compiled once per width.
 *
 * Square index = rank * size + file, with a1 = 0 (rank and file counted from 0). Bits at or
 * above size*size are always zero in a valid board set; the shift helpers keep that invariant by
 * masking with the geometry's board mask. This header is the only place that touches the raw
 * representation: every other file uses these helpers. Popcount and bit scans work on the 64-bit
 * words, so they compile to plain popcnt/tzcnt/lzcnt instructions.
 *
 * Outside this header a set is never used as an integer: it is tested with bb_any, bb_is_empty
 * and bb_eq, starts from BB_EMPTY and is read a word at a time with bb_word.
 *
 * A struct bb_geom describes one board size: the board mask, the masks that stop east/west
 * shifts from wrapping onto the next rank, the edge squares, and per-square tables (neighbours,
 * rays to the edge) that let the hot paths look up what a shift or a slide loop would compute.
 */
#ifndef HNEFI_ENGINE_BITBOARD_H
#define HNEFI_ENGINE_BITBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/width.h"

#if HNEFI_WIDE
/* The wide bitboard (boards up to 19x19, 361 squares): eight 64-bit words as a vector, six used;
   aligned to 8 bytes only, so that sets in malloc'd memory are read with unaligned loads. */
typedef uint64_t bb_t __attribute__((vector_size(64), aligned(8)));
enum { BB_WORDS = 6, BB_MAX_SIZE = 19, BB_MAX_SQUARES = 361 };
typedef int16_t bb_square_t; /* a square index, or -1 */

/* The empty set, usable in initialisers. */
#define BB_EMPTY ((bb_t){0})

/* Tells whether a board of size x size squares is one hnefi plays (7 to 19, odd). */
static inline bool bb_size_supported(int size) {
    return size >= 7 && size <= 19 && size % 2 == 1;
}

/* Returns word w (0..BB_WORDS-1) of b: squares 64w to 64w+63. */
static inline uint64_t bb_word(bb_t b, int w) {
    return b[w];
}

/* Returns the set of squares 0..127 given by its two lowest words. */
static inline bb_t bb_from_words(uint64_t w0, uint64_t w1) {
    return (bb_t){w0, w1};
}

/* Returns b with word w (0..BB_WORDS-1) replaced by x. */
static inline bb_t bb_with_word(bb_t b, int w, uint64_t x) {
    b[w] = x;
    return b;
}

/* Tells whether b has at least one square. */
static inline bool bb_any(bb_t b) {
    return (b[0] | b[1] | b[2] | b[3] | b[4] | b[5]) != 0;
}

/* Tells whether a and b hold the same squares. */
static inline bool bb_eq(bb_t a, bb_t b) {
    return bb_any(a ^ b) == false;
}

/* Returns the set of every square (and the bits beyond the board): a mask that keeps all. */
static inline bb_t bb_all(void) {
    return ~BB_EMPTY;
}

/* Returns the set with only square sq. */
static inline bb_t bb_sq(int sq) {
    bb_t b = BB_EMPTY;
    b[sq >> 6] = 1ULL << (sq & 63);
    return b;
}

/* Tells whether square sq is in b. */
static inline bool bb_has(bb_t b, int sq) {
    return (b[sq >> 6] >> (sq & 63)) & 1;
}

/* Counts the squares in b. */
static inline int bb_popcount(bb_t b) {
    return __builtin_popcountll(b[0]) + __builtin_popcountll(b[1]) + __builtin_popcountll(b[2]) +
           __builtin_popcountll(b[3]) + __builtin_popcountll(b[4]) + __builtin_popcountll(b[5]);
}

/* Returns the lowest square of a non-empty b. */
static inline int bb_lsb(bb_t b) {
    int w = 0;
    while (!b[w]) w++;
    return 64 * w + __builtin_ctzll(b[w]);
}

/* Returns the highest square of a non-empty b. */
static inline int bb_msb(bb_t b) {
    int w = BB_WORDS - 1;
    while (!b[w]) w--;
    return 64 * w + 63 - __builtin_clzll(b[w]);
}

/* Returns b without its lowest square (b itself when empty). */
static inline bb_t bb_without_lowest(bb_t b) {
    for (int w = 0; w < BB_WORDS; w++)
        if (b[w]) {
            b[w] &= b[w] - 1;
            break;
        }
    return b;
}

/* Shifts b by k >= 0 squares towards higher indices; bits beyond the words vanish. */
static inline __attribute__((always_inline)) bb_t bb_shl(bb_t b, int k) {
    int q = k >> 6, r = k & 63;
    bb_t out = BB_EMPTY;
    for (int w = BB_WORDS - 1; w >= q; w--) {
        uint64_t v = b[w - q] << r;
        if (r && w - q - 1 >= 0) v |= b[w - q - 1] >> (64 - r);
        out[w] = v;
    }
    return out;
}

/* Shifts b by k >= 0 squares towards lower indices. */
static inline __attribute__((always_inline)) bb_t bb_shr(bb_t b, int k) {
    int q = k >> 6, r = k & 63;
    bb_t out = BB_EMPTY;
    for (int w = 0; w + q < BB_WORDS; w++) {
        uint64_t v = b[w + q] >> r;
        if (r && w + q + 1 < BB_WORDS) v |= b[w + q + 1] << (64 - r);
        out[w] = v;
    }
    return out;
}
#else
__extension__ typedef unsigned __int128 bb_t;

enum { BB_WORDS = 2, BB_MAX_SIZE = 11, BB_MAX_SQUARES = 121 };
typedef int8_t bb_square_t; /* a square index, or -1 */

/* The empty set, usable in initialisers. */
#define BB_EMPTY ((bb_t)0)

/* Tells whether a board of size x size squares is one hnefi plays (7, 9 or 11). */
static inline bool bb_size_supported(int size) {
    return size == 7 || size == 9 || size == 11;
}

/* Builds a bitboard from its high and low 64-bit halves. */
static inline bb_t bb_make(uint64_t hi, uint64_t lo) {
    return ((bb_t)hi << 64) | lo;
}

/* Returns the low 64 bits. */
static inline uint64_t bb_lo(bb_t b) {
    return (uint64_t)b;
}

/* Returns the high 64 bits. */
static inline uint64_t bb_hi(bb_t b) {
    return (uint64_t)(b >> 64);
}

/* Returns word w (0 or 1) of b: squares 64w to 64w+63. */
static inline uint64_t bb_word(bb_t b, int w) {
    return w ? bb_hi(b) : bb_lo(b);
}

/* Returns the set of squares 0..127 given by its two words. */
static inline bb_t bb_from_words(uint64_t w0, uint64_t w1) {
    return bb_make(w1, w0);
}

/* Returns b with word w (0 or 1) replaced by x. */
static inline bb_t bb_with_word(bb_t b, int w, uint64_t x) {
    return w ? bb_make(x, bb_lo(b)) : bb_make(bb_hi(b), x);
}

/* Tells whether b has at least one square. */
static inline bool bb_any(bb_t b) {
    return b != 0;
}

/* Tells whether a and b hold the same squares. */
static inline bool bb_eq(bb_t a, bb_t b) {
    return a == b;
}

/* Returns the set of every square (and the bits beyond the board): a mask that keeps all. */
static inline bb_t bb_all(void) {
    return ~(bb_t)0;
}

/* Returns the set with only square sq. */
static inline bb_t bb_sq(int sq) {
    return (bb_t)1 << sq;
}

/* Tells whether square sq (0..127) is in b; one 64-bit half is tested, not a 128-bit shift. */
static inline bool bb_has(bb_t b, int sq) {
    uint64_t half = sq < 64 ? bb_lo(b) : bb_hi(b);
    return (half >> (sq & 63)) & 1;
}

/* Counts the squares in b. */
static inline int bb_popcount(bb_t b) {
    return __builtin_popcountll(bb_lo(b)) + __builtin_popcountll(bb_hi(b));
}

/* Returns the lowest square of a non-empty b. */
static inline int bb_lsb(bb_t b) {
    uint64_t lo = bb_lo(b);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(bb_hi(b));
}

/* Returns the highest square of a non-empty b. */
static inline int bb_msb(bb_t b) {
    uint64_t hi = bb_hi(b);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(bb_lo(b));
}

/* Returns b without its lowest square (b itself when empty). */
static inline bb_t bb_without_lowest(bb_t b) {
    return b & (b - 1);
}

/* Shifts b by k >= 0 squares towards higher indices. */
static inline __attribute__((always_inline)) bb_t bb_shl(bb_t b, int k) {
    return b << k;
}

/* Shifts b by k >= 0 squares towards lower indices. */
static inline __attribute__((always_inline)) bb_t bb_shr(bb_t b, int k) {
    return b >> k;
}
#endif

/* Tells whether b has no square. */
static inline bool bb_is_empty(bb_t b) {
    return !bb_any(b);
}

/* The four orthogonal directions; north is towards higher ranks, east towards higher files. */
enum bb_dir { DIR_NORTH, DIR_EAST, DIR_SOUTH, DIR_WEST, DIR_NB };

struct bb_geom {
    int size;     /* board side */
    int squares;  /* size * size */
    bb_t board;   /* every square of the board */
    bb_t not_a;   /* board minus file a: the squares an east shift may land on */
    bb_t not_end; /* board minus the last file: the squares a west shift may land on */
    bb_t edge;    /* the squares on the outer ring */
    bb_t file_a, file_end, rank_1, rank_end;
    bb_square_t nb[BB_MAX_SQUARES][DIR_NB]; /* neighbour square per direction, -1 off the board */
    int8_t inward[BB_MAX_SQUARES];          /* for an edge square (not a corner): the direction
                                               pointing into the board, else -1 */
    bb_t beside_corners;                    /* the squares orthogonally next to the four corners */
    bb_t nbrs[BB_MAX_SQUARES];              /* the orthogonal neighbours of each square */
    bb_t lines[BB_MAX_SQUARES];             /* the other squares of each square's rank and file */
    bb_t ray[DIR_NB][BB_MAX_SQUARES];       /* the squares beyond sq in direction d, to the edge */
};

/* Removes and returns the lowest square of a non-empty *b. */
static inline int bb_pop(bb_t *b) {
    int sq = bb_lsb(*b);
    *b = bb_without_lowest(*b);
    return sq;
}

/* Tells whether b has more than one square. */
static inline bool bb_several(bb_t b) {
    return bb_any(bb_without_lowest(b));
}

/* Shifts b one square north (towards higher ranks); squares leaving the board vanish. */
static inline bb_t bb_north(bb_t b, const struct bb_geom *g) {
    return bb_shl(b, g->size) & g->board;
}

/* Shifts b one square south. */
static inline bb_t bb_south(bb_t b, const struct bb_geom *g) {
    return bb_shr(b, g->size);
}

/* Shifts b one square east (towards higher files) without wrapping. */
static inline bb_t bb_east(bb_t b, const struct bb_geom *g) {
    return bb_shl(b, 1) & g->not_a;
}

/* Shifts b one square west without wrapping. */
static inline bb_t bb_west(bb_t b, const struct bb_geom *g) {
    return bb_shr(b, 1) & g->not_end;
}

/* Shifts b one square in direction d. */
static inline bb_t bb_shift(bb_t b, int d, const struct bb_geom *g) {
    switch (d) {
    case DIR_NORTH: return bb_north(b, g);
    case DIR_EAST: return bb_east(b, g);
    case DIR_SOUTH: return bb_south(b, g);
    default: return bb_west(b, g);
    }
}

/* Returns the squares orthogonally adjacent to any square of b. */
static inline bb_t bb_neighbours(bb_t b, const struct bb_geom *g) {
    return bb_north(b, g) | bb_south(b, g) | bb_east(b, g) | bb_west(b, g);
}

/* Grows seed through the squares of pass (orthogonal steps) until it stops growing. */
static inline bb_t bb_flood(bb_t seed, bb_t pass, const struct bb_geom *g) {
    bb_t prev;
    seed &= pass;
    do {
        prev = seed;
        seed |= bb_neighbours(seed, g) & pass;
    } while (!bb_eq(seed, prev));
    return seed;
}

/* Returns the squares of ray (from `ray[sq]` of a direction towards higher squares) up to and
   including the first square not in pro. */
static inline bb_t bb_ray_up(const bb_t *ray, int sq, bb_t pro) {
    bb_t r = ray[sq], stop = r & ~pro;
    return bb_any(stop) ? r ^ ray[bb_lsb(stop)] : r;
}

/* The same for a direction towards lower squares (the first stop is the highest). */
static inline bb_t bb_ray_down(const bb_t *ray, int sq, bb_t pro) {
    bb_t r = ray[sq], stop = r & ~pro;
    return bb_any(stop) ? r ^ ray[bb_msb(stop)] : r;
}

/*
 * Returns the squares a piece on sq reaches by sliding through the squares of pro, plus the
 * first square not in pro on each line (the caller masks out what it may not land on).
 */
static inline bb_t bb_slides(const struct bb_geom *g, int sq, bb_t pro) {
    return bb_ray_up(g->ray[DIR_NORTH], sq, pro) | bb_ray_up(g->ray[DIR_EAST], sq, pro) |
           bb_ray_down(g->ray[DIR_SOUTH], sq, pro) | bb_ray_down(g->ray[DIR_WEST], sq, pro);
}

/*
 * Board-size specialisation. The hot loops below take the board side n as an argument; called
 * through BB_BY_SIZE with a side known at the call, every shift by n becomes a constant shift.
 * BB_BY_SIZE(size, expr) evaluates to expr with `n` bound to 11, 9 or 7 as constants (the wide
 * bitboard: 19, 15 or 13; any other size: the variable), so each common size gets its own
 * compiled copy.
 */
#if HNEFI_WIDE
#define BB_BY_SIZE(size, expr)                                                                     \
    ((size) == 19   ? ((void)0, BB_WITH_N(19, expr))                                               \
     : (size) == 15 ? ((void)0, BB_WITH_N(15, expr))                                               \
     : (size) == 13 ? ((void)0, BB_WITH_N(13, expr))                                               \
                    : BB_WITH_N(size, expr))
#else
#define BB_BY_SIZE(size, expr)                                                                     \
    ((size) == 11  ? ((void)0, BB_WITH_N(11, expr))                                                \
     : (size) == 9 ? ((void)0, BB_WITH_N(9, expr))                                                 \
     : (size) == 7 ? ((void)0, BB_WITH_N(7, expr))                                                 \
                   : BB_WITH_N(size, expr))
#endif
#define BB_WITH_N(value, expr)                                                                     \
    __extension__({                                                                                \
        const int n = (value);                                                                     \
        (expr);                                                                                    \
    })

/* Shifts b by k squares towards higher indices (k < 0: towards lower ones). */
static inline __attribute__((always_inline)) bb_t bb_shift_by(bb_t b, int k) {
    return k >= 0 ? bb_shl(b, k) : bb_shr(b, -k);
}

/* Occluded fill of gen through pro by steps of k squares (Kogge-Stone: up to 15 steps, 31 on
   the wide bitboard, whose slides are up to 18 squares long). */
static inline __attribute__((always_inline)) bb_t bb_fill(bb_t gen, bb_t pro, int k) {
    gen |= pro & bb_shift_by(gen, k);
    pro &= bb_shift_by(pro, k);
    gen |= pro & bb_shift_by(gen, 2 * k);
    pro &= bb_shift_by(pro, 2 * k);
    gen |= pro & bb_shift_by(gen, 4 * k);
    pro &= bb_shift_by(pro, 4 * k);
    gen |= pro & bb_shift_by(gen, 8 * k);
#if HNEFI_WIDE
    pro &= bb_shift_by(pro, 8 * k);
    gen |= pro & bb_shift_by(gen, 16 * k);
#endif
    return gen;
}

/*
 * Writes, per direction, the squares the pieces of gen reach in one slide through pro (plus the
 * first square beyond), on an n x n board.
 */
static inline __attribute__((always_inline)) void
bb_slides_by_dir(const struct bb_geom *g, bb_t gen, bb_t pro, int n, bb_t out[DIR_NB]) {
    bb_t pe = pro & g->not_a, pw = pro & g->not_end;
    out[DIR_NORTH] = bb_shl(bb_fill(gen, pro, n), n) & g->board;
    out[DIR_SOUTH] = bb_shr(bb_fill(gen, pro, -n), n);
    out[DIR_EAST] = bb_shl(bb_fill(gen, pe, 1), 1) & g->not_a;
    out[DIR_WEST] = bb_shr(bb_fill(gen, pw, -1), 1) & g->not_end;
}

/* Shifts b one square north on an n x n board (n a constant under BB_BY_SIZE). */
static inline __attribute__((always_inline)) bb_t bb_north_n(bb_t b, const struct bb_geom *g,
                                                             int n) {
    return bb_shl(b, n) & g->board;
}

/* Shifts b one square south on an n x n board. */
static inline __attribute__((always_inline)) bb_t bb_south_n(bb_t b, int n) {
    return bb_shr(b, n);
}

/* Returns the orthogonal neighbours of the squares of b on an n x n board. */
static inline __attribute__((always_inline)) bb_t bb_neighbours_n(bb_t b, const struct bb_geom *g,
                                                                  int n) {
    return bb_north_n(b, g, n) | bb_south_n(b, n) | (bb_shl(b, 1) & g->not_a) |
           (bb_shr(b, 1) & g->not_end);
}

/* Tells whether seed, grown orthogonally through pass, reaches a square of goal (n x n board). */
static inline __attribute__((always_inline)) bool
bb_flood_reaches_n(const struct bb_geom *g, bb_t seed, bb_t pass, bb_t goal, int n) {
    bb_t prev;
    if (bb_any(seed & goal)) return true;
    do {
        prev = seed;
        seed |= bb_neighbours_n(seed, g, n) & pass;
        if (bb_any(seed & goal)) return true;
    } while (!bb_eq(seed, prev));
    return false;
}

/* Tells whether seed, grown orthogonally through the squares of pass, reaches a square of goal. */
bool bb_flood_reaches(const struct bb_geom *g, bb_t seed, bb_t pass, bb_t goal);

/* Fills g with the masks of a size x size board (size 3..BB_MAX_SIZE). */
void bb_geom_init(struct bb_geom *g, int size);

#endif
