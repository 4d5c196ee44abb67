/*
 * Bitboard tests, exhaustive where the 128-bit type is split: every square of every board size,
 * every pair of squares around the 64-bit word boundary, and each shift against a per-square
 * computation from ranks and files.
 */
#include "check.h"
#include "engine/bitboard.h"

/* Checks single-square sets: membership, popcount, lsb/msb, pop, halves. */
static void single_squares(void) {
    for (int sq = 0; sq < 128; sq++) {
        bb_t b = bb_sq(sq);
        CHECK(bb_has(b, sq));
        CHECK_EQ_INT(bb_popcount(b), 1);
        CHECK_EQ_INT(bb_lsb(b), sq);
        CHECK_EQ_INT(bb_msb(b), sq);
        CHECK(!bb_several(b));
        CHECK(bb_eq(bb_make(bb_hi(b), bb_lo(b)), b));
        bb_t c = b;
        CHECK_EQ_INT(bb_pop(&c), sq);
        CHECK(bb_is_empty(c));
    }
}

/* Checks every pair of squares with at least one in 48..79, around the word boundary. */
static void pairs_at_boundary(void) {
    for (int a = 0; a < 128; a++)
        for (int b = a + 1; b < 128; b++) {
            if (!((a >= 48 && a < 80) || (b >= 48 && b < 80))) continue;
            bb_t x = bb_sq(a) | bb_sq(b);
            if (!check_record(bb_popcount(x) == 2 && bb_lsb(x) == a && bb_msb(x) == b &&
                                  bb_several(x),
                              __FILE__, __LINE__, "pair"))
                return;
            bb_t y = x;
            int p1 = bb_pop(&y), p2 = bb_pop(&y);
            CHECK(p1 == a && p2 == b && bb_is_empty(y));
        }
}

/* Checks the shifts, neighbour tables and masks of each board size square by square. */
static void shifts(int size) {
    struct bb_geom g;
    bb_geom_init(&g, size);
    CHECK_EQ_INT(bb_popcount(g.board), size * size);
    CHECK_EQ_INT(bb_popcount(g.edge), 4 * size - 4);
    for (int sq = 0; sq < size * size; sq++) {
        int f = sq % size, r = sq / size;
        bb_t b = bb_sq(sq);
        CHECK(bb_eq(bb_north(b, &g), r + 1 < size ? bb_sq(sq + size) : BB_EMPTY));
        CHECK(bb_eq(bb_south(b, &g), r > 0 ? bb_sq(sq - size) : BB_EMPTY));
        CHECK(bb_eq(bb_east(b, &g), f + 1 < size ? bb_sq(sq + 1) : BB_EMPTY));
        CHECK(bb_eq(bb_west(b, &g), f > 0 ? bb_sq(sq - 1) : BB_EMPTY));
        CHECK_EQ_INT(g.nb[sq][DIR_NORTH], r + 1 < size ? sq + size : -1);
        CHECK_EQ_INT(g.nb[sq][DIR_WEST], f > 0 ? sq - 1 : -1);
        bool edge = f == 0 || r == 0 || f == size - 1 || r == size - 1;
        CHECK(bb_has(g.edge, sq) == edge);
        CHECK(bb_popcount(bb_neighbours(b, &g)) ==
              4 - (f == 0) - (r == 0) - (f == size - 1) - (r == size - 1));
    }
    /* a full board shifted stays on the board */
    CHECK(bb_is_empty(bb_north(g.board, &g) & ~g.board));
    CHECK(bb_is_empty(bb_east(g.board, &g) & ~g.board));
    /* flood from a corner over the whole board reaches every square */
    CHECK(bb_eq(bb_flood(bb_sq(0), g.board, &g), g.board));
}

int main(void) {
    single_squares();
    pairs_at_boundary();
    shifts(7);
    shifts(9);
    shifts(11);
    return check_done();
}
