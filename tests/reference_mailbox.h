/*
 * A naive mailbox implementation of the tafl rules, written from docs/rules.md (sections 2-5)
 * without looking at the bitboard engine, to cross-check it in tests/test_reference.c.
 *
 * The board is a plain array of cells indexed like the engine's squares (rank * size + file,
 * a1 = 0). Everything is done the slow, obvious way: moves slide one step at a time, captures
 * look at explicit neighbours, and flood fills are breadth-first searches over the array. The
 * rule options are read from the engine's struct variant, so one reference covers every variant;
 * nothing else of the engine is used (no bitboards, no masks derived by variant_finish).
 *
 * Berserk (OpenTafl's variant 5, docs/rules.md's "Berserk" paragraph) is covered too: a commander
 * or knight is an attacker or defender cell with its `spec` flag set, a jump is a move two squares
 * on over an occupied square, and a berserk turn keeps the side to move and names the berserker.
 */
#ifndef HNEFI_TESTS_REFERENCE_MAILBOX_H
#define HNEFI_TESTS_REFERENCE_MAILBOX_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/types.h"
#include "engine/variant.h"

enum { REF_MAX_SQUARES = 361, REF_MAX_MOVES = 2048 }; /* boards up to 19x19 */

/* The contents of a square. */
enum ref_cell { REF_EMPTY, REF_ATT, REF_DEF, REF_KING };

/* A position: the cells, the side to move, the berserker, and the variant whose options apply. */
struct ref_board {
    const struct variant *v;
    int n;         /* board side */
    int side;      /* enum side: who moves next */
    int berserker; /* the square of the piece that must move again (a berserk turn), or -1 */
    uint8_t cell[REF_MAX_SQUARES];
    bool spec[REF_MAX_SQUARES]; /* the piece is a commander (REF_ATT) or a knight (REF_DEF) */
};

/* What one move did: the captured squares, which special rules captured, and the board end. */
struct ref_move_info {
    int ncapt;
    int capt[REF_MAX_SQUARES]; /* captured squares, ascending */
    bool shieldwall;           /* a shieldwall (§4.3) captured at least one man */
    bool linnaean;             /* a Linnaean capture (§4.7) took a man */
    bool jump;                 /* the move was a jump (Berserk) */
    int result;                /* enum result after checks 1-4 of §4.10 */
    int reason;                /* enum end_reason */
};

/* Reads a TaflZero FEN (commanders `c`, knights `n`, the side to move optionally followed by the
   berserker's square) into b for variant v; returns false if it is malformed. */
bool ref_from_fen(struct ref_board *b, const struct variant *v, const char *fen);

/* Writes the legal moves of the side to move into out (REF_MAX_MOVES); returns their number. */
int ref_gen_moves(const struct ref_board *b, move_t *out);

/* Plays move m from src into dst and fills info with its captures and board-rule end; dst's side
   to move and berserker follow the berserk rule. */
void ref_make(const struct ref_board *src, struct ref_board *dst, move_t m,
              struct ref_move_info *info);

/* Applies §4.9 to a position whose board rules did not end the game; updates result/reason. */
void ref_no_moves_end(const struct ref_board *b, int *result, int *reason);

/* Counts the squares of the region flood-filled from the defenders through non-attackers. */
int ref_defender_region(const struct ref_board *b);

#endif
