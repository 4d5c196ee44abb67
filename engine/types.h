/*
 * Shared small types of the tafl engine: sides, pieces, moves, game results.
 *
 * A move is a 16-bit value: bits 0-6 the from-square, bits 7-13 the to-square (square indices as
 * in bitboard.h); on the wide bitboard (HNEFI_WIDE) a 32-bit value with 9 bits a square. MOVE_NONE
 * (0) is never a legal move, since from == to.
 */
#ifndef HNEFI_ENGINE_TYPES_H
#define HNEFI_ENGINE_TYPES_H

#include <stdint.h>

#include "engine/width.h"

/* The two sides; the king belongs to the defenders. */
enum side { SIDE_ATTACKERS, SIDE_DEFENDERS, SIDE_NB };

/* Piece kinds, as used in hostility sets and boards. */
enum piece { PIECE_NONE, PIECE_ATTACKER, PIECE_DEFENDER, PIECE_KING };

/* Sets of piece kinds (attacker men, defender men, king) for hostility options. */
enum kind_set { KIND_A = 1, KIND_D = 2, KIND_K = 4 };

/* MAX_MOVES bounds a move list: each empty square is reached by at most four men (the nearest
   in each direction), so a board of n x n squares has at most 4 n^2 moves (movegen.c checks). */
#if HNEFI_WIDE
typedef uint32_t move_t;
enum { MOVE_SQUARE_BITS = 9, MAX_MOVES = 1448 };
#else
typedef uint16_t move_t;
enum { MOVE_SQUARE_BITS = 7, MAX_MOVES = 512 };
#endif

enum { MOVE_NONE = 0, MAX_GAME_PLIES = 4096 };

/* Builds a move from its squares. */
static inline move_t move_make(int from, int to) {
    return (move_t)(from | (to << MOVE_SQUARE_BITS));
}

/* Returns a move's from-square. */
static inline int move_from(move_t m) {
    return m & ((1 << MOVE_SQUARE_BITS) - 1);
}

/* Returns a move's to-square. */
static inline int move_to(move_t m) {
    return m >> MOVE_SQUARE_BITS;
}

/* The result of a game: ongoing, a win for a side, or a draw. */
enum result { RESULT_NONE, RESULT_ATTACKERS, RESULT_DEFENDERS, RESULT_DRAW };

/* Why a game ended. */
enum end_reason {
    END_NONE,
    END_ESCAPE, /* the king reached an escape square */
    END_KING_CAPTURED,
    END_IMMOBILE_KING, /* seed Tablut: the king and at most one defender shut in */
    END_ENCIRCLED,     /* every defender enclosed by the attackers */
    END_EXIT_FORT,     /* the king in an unbreakable fort on the edge */
    END_REPETITION,
    END_NO_MOVES, /* the side to move has no legal move */
};

#endif
