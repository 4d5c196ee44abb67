/*
 * The 8 symmetries of the square board: rotations and reflections that map squares, sets of
 * squares, moves and positions onto their images.
 *
 * Symmetry k maps the square at (rank r, file f) of an n x n board, with m = n - 1, to:
 *   0 (r, f) the identity          4 (r, m - f) files mirrored
 *   1 (f, m - r) a quarter turn    5 (m - r, f) ranks mirrored
 *   2 (m - r, m - f) a half turn   6 (f, r) the a1-k11 diagonal
 *   3 (m - f, r) three quarters    7 (m - f, m - r) the other diagonal
 * Every symmetry is its own inverse except 1 and 3, which undo each other. A variant allows the
 * symmetries that leave its start position (its commanders and knights included) and every mask
 * (throne, corners, escape squares, where men and the king may stop and pass, where restricted
 * jumps go) unchanged; its rules say nothing else about where a square is, so a position and
 * its image under an allowed symmetry play alike.
 */
#ifndef HNEFI_ENGINE_SYMMETRY_H
#define HNEFI_ENGINE_SYMMETRY_H

#include "engine/position.h"

enum { SYM_NB = 8, SYM_ALL = 0xFF };

/* Returns the image of square sq under symmetry k on an n x n board. */
int sym_square(int k, int sq, int n);

/* Returns the symmetry that undoes symmetry k. */
int sym_inverse(int k);

/* Returns the image of a set of squares under symmetry k. */
bb_t sym_set(int k, bb_t b, int n);

/* Returns the image of a move under symmetry k. */
move_t sym_move(int k, move_t m, int n);

/* Writes the image of src under symmetry k into dst (commanders, knights and the berserker
   mapped too; key recomputed, result kept). */
void sym_position(int k, const struct position *src, struct position *dst);

/* Returns the set of symmetries v allows (bit k for symmetry k; bit 0 is always set). */
unsigned sym_variant_allows(const struct variant *v);

#endif
