/*
 * SVG board pictures: a tafl position with a line of moves drawn as numbered arrows (attackers'
 * moves dark red, defenders' moves blue), for players who want to read an analysis at a glance.
 */
#ifndef HNEFI_TOOLS_SVG_H
#define HNEFI_TOOLS_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/position.h"

/* Writes p with the moves of line (n of them, played from p) as an SVG document to out. */
bool svg_write(FILE *out, const struct position *p, const move_t *line, int n, const char *title);

#endif
