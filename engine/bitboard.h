/*
 * The 128-bit bitboard: one bit per square of a board of up to 11x11 (121 squares).
 *
 * Square index = rank * size + file, with a1 = 0 (rank and file counted from 0). Bits at or
 * above size*size are always zero in a valid board set; the shift helpers keep that invariant by
 * masking with the geometry's board mask. This header is the only place that touches raw 128-bit
 * arithmetic: every other file uses these helpers. Popcount and bit scans work on the two 64-bit
 * halves, so they compile to plain popcnt/tzcnt/lzcnt instructions.
 *
 * Outside this header a set is never used as an integer: it is tested with bb_any, bb_is_empty
 * and bb_eq and starts from BB_EMPTY, so that a wider vector type can stand in for bb_t.
 *
 * A struct bb_geom describes one board size: the board mask, the masks that stop east/west
 * shifts from wrapping onto the next rank, the edge squares, and per-square tables (neighbours,
 * rays to the edge) that let the hot paths look up what a shift or a slide loop would compute.
 */
#ifndef HNEFI_ENGINE_BITBOARD_H
#define HNEFI_ENGINE_BITBOARD_H

#include <stdbool.h>
#include <stdint.h>

__extension__ typedef unsigned __int128 bb_t;

enum { BB_MAX_SIZE = 11, BB_MAX_SQUARES = 121 };

/* The empty set, usable in initialisers. */
#define BB_EMPTY ((bb_t)0)

/* Tells whether a board of size x size squares is one hnefi plays (7, 9 or 11). */
static inline bool bb_size_supported(int size) {
    return size == 7 || size == 9 || size == 11;
}

/* The four orthogonal directions; north is towards higher ranks, east towards higher files. */
enum bb_dir { DIR_NORTH, DIR_EAST, DIR_SOUTH, DIR_WEST, DIR_NB };

struct bb_geom {
    int size;     /* board side: 7, 9 or 11 */
    int squares;  /* size * size */
    bb_t board;   /* every square of the board */
    bb_t not_a;   /* board minus file a: the squares an east shift may land on */
    bb_t not_end; /* board minus the last file: the squares a west shift may land on */
    bb_t edge;    /* the squares on the outer ring */
    bb_t file_a, file_end, rank_1, rank_end;
    int8_t nb[BB_MAX_SQUARES][DIR_NB]; /* neighbour square per direction, -1 off the board */
    int8_t inward[BB_MAX_SQUARES];     /* for an edge square (not a corner): the direction
                                          pointing into the board, else -1 */
    bb_t beside_corners;               /* the squares orthogonally next to the four corners */
    bb_t nbrs[BB_MAX_SQUARES];         /* the orthogonal neighbours of each square */
    bb_t lines[BB_MAX_SQUARES];        /* the other squares of each square's rank and file */
    bb_t ray[DIR_NB][BB_MAX_SQUARES];  /* the squares beyond sq in direction d, up to the edge */
};

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

/* Tells whether b has at least one square. */
static inline bool bb_any(bb_t b) {
    return b != 0;
}

/* Tells whether b has no square. */
static inline bool bb_is_empty(bb_t b) {
    return b == 0;
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

/* Removes and returns the lowest square of a non-empty *b. */
static inline int bb_pop(bb_t *b) {
    int sq = bb_lsb(*b);
    *b &= *b - 1;
    return sq;
}

/* Returns b without its lowest square (b itself when empty). */
static inline bb_t bb_without_lowest(bb_t b) {
    return b & (b - 1);
}

/* Tells whether b has more than one square. */
static inline bool bb_several(bb_t b) {
    return (b & (b - 1)) != 0;
}

/* Shifts b one square north (towards higher ranks); squares leaving the board vanish. */
static inline bb_t bb_north(bb_t b, const struct bb_geom *g) {
    return (b << g->size) & g->board;
}

/* Shifts b one square south. */
static inline bb_t bb_south(bb_t b, const struct bb_geom *g) {
    return b >> g->size;
}

/* Shifts b one square east (towards higher files) without wrapping. */
static inline bb_t bb_east(bb_t b, const struct bb_geom *g) {
    return (b << 1) & g->not_a;
}

/* Shifts b one square west without wrapping. */
static inline bb_t bb_west(bb_t b, const struct bb_geom *g) {
    return (b >> 1) & g->not_end;
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
    } while (seed != prev);
    return seed;
}

/* Returns the squares of ray (from `ray[sq]` of a direction towards higher squares) up to and
   including the first square not in pro. */
static inline bb_t bb_ray_up(const bb_t *ray, int sq, bb_t pro) {
    bb_t r = ray[sq], stop = r & ~pro;
    return stop ? r ^ ray[bb_lsb(stop)] : r;
}

/* The same for a direction towards lower squares (the first stop is the highest). */
static inline bb_t bb_ray_down(const bb_t *ray, int sq, bb_t pro) {
    bb_t r = ray[sq], stop = r & ~pro;
    return stop ? r ^ ray[bb_msb(stop)] : r;
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
 * BB_BY_SIZE(size, expr) evaluates to expr with `n` bound to 11, 9 or 7 as constants (any other
 * size: the variable), so each common size gets its own compiled copy.
 */
#define BB_BY_SIZE(size, expr)                                                                     \
    ((size) == 11  ? ((void)0, BB_WITH_N(11, expr))                                                \
     : (size) == 9 ? ((void)0, BB_WITH_N(9, expr))                                                 \
     : (size) == 7 ? ((void)0, BB_WITH_N(7, expr))                                                 \
                   : BB_WITH_N(size, expr))
#define BB_WITH_N(value, expr)                                                                     \
    __extension__({                                                                                \
        const int n = (value);                                                                     \
        (expr);                                                                                    \
    })

/* Shifts b by k squares towards higher indices (k < 0: towards lower ones). */
static inline __attribute__((always_inline)) bb_t bb_shift_by(bb_t b, int k) {
    return k >= 0 ? b << k : b >> -k;
}

/* Occluded fill of gen through pro by steps of k squares (Kogge-Stone, up to 15 steps). */
static inline __attribute__((always_inline)) bb_t bb_fill(bb_t gen, bb_t pro, int k) {
    gen |= pro & bb_shift_by(gen, k);
    pro &= bb_shift_by(pro, k);
    gen |= pro & bb_shift_by(gen, 2 * k);
    pro &= bb_shift_by(pro, 2 * k);
    gen |= pro & bb_shift_by(gen, 4 * k);
    pro &= bb_shift_by(pro, 4 * k);
    gen |= pro & bb_shift_by(gen, 8 * k);
    return gen;
}

/*
 * Writes, per direction, the squares the pieces of gen reach in one slide through pro (plus the
 * first square beyond), on an n x n board.
 */
static inline __attribute__((always_inline)) void
bb_slides_by_dir(const struct bb_geom *g, bb_t gen, bb_t pro, int n, bb_t out[DIR_NB]) {
    bb_t pe = pro & g->not_a, pw = pro & g->not_end;
    out[DIR_NORTH] = (bb_fill(gen, pro, n) << n) & g->board;
    out[DIR_SOUTH] = bb_fill(gen, pro, -n) >> n;
    out[DIR_EAST] = (bb_fill(gen, pe, 1) << 1) & g->not_a;
    out[DIR_WEST] = (bb_fill(gen, pw, -1) >> 1) & g->not_end;
}

/* Shifts b one square north on an n x n board (n a constant under BB_BY_SIZE). */
static inline __attribute__((always_inline)) bb_t bb_north_n(bb_t b, const struct bb_geom *g,
                                                             int n) {
    return (b << n) & g->board;
}

/* Shifts b one square south on an n x n board. */
static inline __attribute__((always_inline)) bb_t bb_south_n(bb_t b, int n) {
    return b >> n;
}

/* Returns the orthogonal neighbours of the squares of b on an n x n board. */
static inline __attribute__((always_inline)) bb_t bb_neighbours_n(bb_t b, const struct bb_geom *g,
                                                                  int n) {
    return bb_north_n(b, g, n) | bb_south_n(b, n) | ((b << 1) & g->not_a) | ((b >> 1) & g->not_end);
}

/* Tells whether seed, grown orthogonally through pass, reaches a square of goal (n x n board). */
static inline __attribute__((always_inline)) bool
bb_flood_reaches_n(const struct bb_geom *g, bb_t seed, bb_t pass, bb_t goal, int n) {
    bb_t prev;
    if (seed & goal) return true;
    do {
        prev = seed;
        seed |= bb_neighbours_n(seed, g, n) & pass;
        if (seed & goal) return true;
    } while (seed != prev);
    return false;
}

/* Tells whether seed, grown orthogonally through the squares of pass, reaches a square of goal. */
bool bb_flood_reaches(const struct bb_geom *g, bb_t seed, bb_t pass, bb_t goal);

/* Fills b geom with the masks of a size x size board (size 3..11). */
void bb_geom_init(struct bb_geom *g, int size);

#endif
