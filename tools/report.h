/*
 * The match report: an SVG picture of a match's course, three panels against games played:
 * the score (with the 50% line), the Elo difference with its 95% interval as a band, and the
 * SPRT's log-likelihood ratio with its two bounds. Long histories are thinned to about a thousand
 * points; the Elo axis leaves out the wild intervals of the first tenth of the match.
 */
#ifndef HNEFI_TOOLS_REPORT_H
#define HNEFI_TOOLS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "selfplay/match.h"

/*
 * Writes the report of a history (sprt NULL: no SPRT panel bounds) under a plain-text title
 * (any <, > or & is shown as a space); false on a write error.
 */
bool report_write_svg(FILE *out, const struct match_point *pts, int64_t n, const struct sprt *sprt,
                      const char *title);

#endif
