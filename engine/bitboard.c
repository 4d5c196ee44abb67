/* The bitboard geometry tables. */
#include "engine/bitboard.h"

/* Fills g with the masks of a size x size board (size 3..11). */
void bb_geom_init(struct bb_geom *g, int size) {
    g->size = size;
    g->squares = size * size;
    g->board = BB_EMPTY;
    g->file_a = g->file_end = g->rank_1 = g->rank_end = BB_EMPTY;
    for (int sq = 0; sq < g->squares; sq++) {
        int file = sq % size, rank = sq / size;
        g->board |= bb_sq(sq);
        if (file == 0) g->file_a |= bb_sq(sq);
        if (file == size - 1) g->file_end |= bb_sq(sq);
        if (rank == 0) g->rank_1 |= bb_sq(sq);
        if (rank == size - 1) g->rank_end |= bb_sq(sq);
    }
    for (int sq = 0; sq < g->squares; sq++) {
        int file = sq % size, rank = sq / size;
        g->nb[sq][DIR_NORTH] = (bb_square_t)(rank + 1 < size ? sq + size : -1);
        g->nb[sq][DIR_SOUTH] = (bb_square_t)(rank > 0 ? sq - size : -1);
        g->nb[sq][DIR_EAST] = (bb_square_t)(file + 1 < size ? sq + 1 : -1);
        g->nb[sq][DIR_WEST] = (bb_square_t)(file > 0 ? sq - 1 : -1);
        int edges = (rank == 0) + (rank == size - 1) + (file == 0) + (file == size - 1);
        g->inward[sq] = -1;
        if (edges == 1)
            g->inward[sq] = (int8_t)(rank == 0          ? DIR_NORTH
                                     : rank == size - 1 ? DIR_SOUTH
                                     : file == 0        ? DIR_EAST
                                                        : DIR_WEST);
    }
    g->not_a = g->board & ~g->file_a;
    g->not_end = g->board & ~g->file_end;
    g->edge = g->file_a | g->file_end | g->rank_1 | g->rank_end;
    /* per-square neighbours and rays, from the neighbour table */
    for (int sq = 0; sq < BB_MAX_SQUARES; sq++) {
        g->nbrs[sq] = g->lines[sq] = BB_EMPTY;
        for (int d = 0; d < DIR_NB; d++) {
            g->ray[d][sq] = BB_EMPTY;
            if (sq >= g->squares) continue;
            if (g->nb[sq][d] >= 0) g->nbrs[sq] |= bb_sq(g->nb[sq][d]);
            for (int s = g->nb[sq][d]; s >= 0; s = g->nb[s][d]) g->ray[d][sq] |= bb_sq(s);
            g->lines[sq] |= g->ray[d][sq];
        }
    }
    int last = g->squares - 1;
    g->beside_corners = g->nbrs[0] | g->nbrs[size - 1] | g->nbrs[last - size + 1] | g->nbrs[last];
}

/* Tells whether seed, grown orthogonally through the squares of pass, reaches a square of goal. */
bool bb_flood_reaches(const struct bb_geom *g, bb_t seed, bb_t pass, bb_t goal) {
    return BB_BY_SIZE(g->size, bb_flood_reaches_n(g, seed, pass, goal, n));
}
