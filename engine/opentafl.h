/*
 * OpenTafl's text forms: rules strings and position records (OpenTafl notation, OTN).
 *
 * A rules string is a list of key:value tokens ("dim:11 name:Copenhagen atkf:y ... start:/.../"),
 * read on top of OpenTafl's defaults; docs/notation.md lists the keys hnefi plays and those it
 * refuses. A position record lists the rows from rank 1 up ('/'-framed, t/T/K for attacker,
 * defender, king; digits for runs of empty squares), or from the top rank with `starti`. Every
 * reader names the bad token and the reason and leaves its output untouched on failure.
 */
#ifndef HNEFI_ENGINE_OPENTAFL_H
#define HNEFI_ENGINE_OPENTAFL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/position.h"
#include "engine/variant.h"

/*
 * Reads an OpenTafl rules string ("dim:11 name:Copenhagen atkf:y ... start:/.../") into v, on top
 * of OpenTafl's defaults. Returns false with a message in err naming the bad token.
 */
bool opentafl_read_rules(struct variant *v, const char *rules, char *err, size_t errlen);

/* Returns the board size a rules string names with its first token dim:N, or 0 if none. */
int opentafl_rules_dim(const char *rules);

/* Tells whether this build reads the rules string (as opentafl_read_rules); false with why. */
bool opentafl_rules_ok(const char *rules, char *err, size_t errlen);

/*
 * Writes v as an OpenTafl rules string, ending with its start position. Options OpenTafl cannot
 * express (no_moves, immobile_king, the repetition rules other than none/draw/loss/win) are
 * written as their nearest OpenTafl equivalent. Returns the length, or -1 if it did not fit.
 */
int opentafl_write_rules(const struct variant *v, char *out, size_t outlen);

/*
 * Converts an OpenTafl position record (rank 1 first, or the top rank first if top_first) to the
 * rows part of a FEN. Returns false with a reason in err.
 */
bool opentafl_record_to_rows(const char *rec, int size, bool top_first, char *rows, size_t rowslen,
                             char *err, size_t errlen);

/* Converts the rows part of a FEN (anything after a space is ignored) to an OpenTafl record. */
bool opentafl_rows_to_record(const char *fen, int size, char *out, size_t outlen);

/* Writes p's placement as an OpenTafl position record. */
int opentafl_record_write(const struct position *p, char *out, size_t outlen);

#endif
