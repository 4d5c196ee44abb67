/*
 * A tournament's settings as one line of text, kept as the first line of its record file, so
 * that a resume with other settings is refused, naming each setting that differs.
 *
 * The line is "# hnefi settings 1: " and then KEY=VALUE words separated by single spaces, in a
 * fixed order: the variant's name and OpenTafl rules, the pair scoring and format, the openings
 * (random plies and seed, or a file, its order and the seed when shuffled), the adjudication
 * (max-plies, max-quiet, resign, draw, time-margin, hang), the players' names, and for each
 * player NAME.tc and either NAME.threads, NAME.hash, NAME.null-move, NAME.lmr and NAME.weights
 * (the weights that differ from the built-in ones, or "default") for an in-process player, or
 * NAME.engine (its command and options) for an external one; NAME.book (the book's checksum,
 * depth, variety and seed) only for a player with a book. Values are percent-escaped: every
 * byte below '!' or above '~', and '%' itself, is written as %XX.
 *
 * What may change between runs of one tournament is left out: the number of games (a longer
 * run extends it), the concurrency, the SPRT (a stopping rule, not a way of playing), and the
 * output files. Readers of record files skip lines that start with '#'.
 */
#ifndef HNEFI_SELFPLAY_MATCH_SETTINGS_H
#define HNEFI_SELFPLAY_MATCH_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "selfplay/match.h"

enum { MATCH_SETTINGS_MAX = 16384 };

#define MATCH_SETTINGS_PREFIX "# hnefi settings 1: "

/* Writes the settings line of a tournament (no newline); false if it does not fit in outlen. */
bool match_settings_write(const struct match_config *c, char *out, size_t outlen);

/* Tells whether a line (of a record file) is a settings line. */
bool match_settings_line(const char *line);

/*
 * Compares a recorded settings line with the current one. True if they agree; false with the
 * differences in why ("hnefi-b.tc: nodes:300 in the records, nodes:400 now; ...").
 */
bool match_settings_same(const char *recorded, const char *now, char *why, size_t whylen);

#endif
