/*
 * Text forms of tafl data: squares, FEN (of positions and of a variant's start), and move text.
 * OpenTafl's own forms (rules strings, position records) are in engine/opentafl.h.
 *
 * FEN is TaflZero's form: rows from the top rank down separated by '/', digits for runs of empty
 * squares (several digits allowed), a/d/k for attacker/defender/king, then a space and the side
 * to move (a or d). Moves are read as `d1d3`, `d1-d3` or `d1-d3xd4[xe3|/e3...]` and written as
 * `d1d3` or, with captures, `d1-d3xd4xe3` (the real-game record format). Every parser names the
 * offending token and the reason in its error message and leaves its output untouched on failure.
 */
#ifndef HNEFI_ENGINE_NOTATION_H
#define HNEFI_ENGINE_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/position.h"

enum { SQ_NAME_MAX = 4, MOVE_TEXT_MAX = 64, FEN_MAX = HNEFI_WIDE ? 400 : 160 };

/*
 * Reads a square name ("a1", "k11") at the start of s for a board of the given size. Returns the
 * square and stores the characters used, or returns -1 (not a square) or -2 (off the board).
 */
int sq_parse(const char *s, int size, int *used);

/* Writes the name of sq into out (room for SQ_NAME_MAX bytes). */
void sq_name(int sq, int size, char *out);

/* Reads a FEN into p for variant v; on failure p is unchanged and err says why. */
bool fen_parse(struct position *p, const struct variant *v, const char *fen, char *err,
               size_t errlen);

/* Writes p as a FEN; returns its length. out needs FEN_MAX bytes. */
int fen_write(const struct position *p, char *out);

/* Writes the start position of v as a FEN; returns its length. out needs FEN_MAX bytes. */
int fen_write_start(const struct variant *v, char *out);

/*
 * Reads a FEN as the start position of v (its size and masks set, variant_finish done). A start
 * must be a game still going; on failure v is unchanged and err says why.
 */
bool fen_read_start(struct variant *v, const char *fen, char *err, size_t errlen);

/* A move as written: its squares and the captures it lists, if any. */
struct move_text {
    int from, to;
    bb_t captures;     /* listed captures */
    bool has_captures; /* the text listed captures ('x') */
};

/* Reads move text without looking at a position; err names the bad token. */
bool move_text_parse(const char *text, int size, struct move_text *mt, char *err, size_t errlen);

/*
 * Reads move text and checks it against p: the move must be legal, and listed captures must be
 * what the move captures. Errors: off the board, no piece there, not your piece, not a straight
 * line, blocked at X, occupied, only the king may stop on the throne/corner, ...
 */
bool move_parse_legal(const struct position *p, const char *text, move_t *m, char *err,
                      size_t errlen);

/* Writes m as `d1d3`; returns the length. */
int move_write(move_t m, int size, char *out);

/* Writes m with its captures as `d1-d3xd4xe3`; returns the length. */
int move_write_captures(move_t m, bb_t captures, int size, char *out);

#endif
